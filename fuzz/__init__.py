"""The fuzzer behind ``make fuzz``: every input path of Maester fed a set number of generated inputs.

``corpus`` makes the inputs, ``targets`` runs Maester on them, ``run`` drives the workers, enforces
the time and memory limits, groups crashes and saves a small reproducer of each (docs/testing.md).
"""
