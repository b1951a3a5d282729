"""Stand-in for Triton 3.6's triton/knobs.py: the one knob tkview's hook uses."""


class _Runtime:
    add_stages_inspection_hook = None


runtime = _Runtime()
