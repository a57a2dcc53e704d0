"""What both the phase rules and the card abilities use.

The step machine's :class:`~adjudicator.engine.core.context.Context` (how a phase asks for a
decision), the common operations on units, power and control, and the procedures that Westeros
cards and wildling cards share: bidding on the influence tracks, mustering, supply.
"""
