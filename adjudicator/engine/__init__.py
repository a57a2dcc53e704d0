"""The rules engine: ``machine.advance`` runs the phases of :mod:`.rules`.

Inside, imports point one way: ``events`` <- ``core`` <- ``cards`` <- ``rules`` <- ``machine``.
Card abilities see the engine only through ``core`` (and the house cards through the narrow
:class:`~adjudicator.engine.cards.registry.CombatView`), never through the phase modules.
"""
