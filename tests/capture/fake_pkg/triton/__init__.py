"""A stand-in for the triton package, for tkview capture's tests: only
triton.knobs, whose runtime.add_stages_inspection_hook is the slot tkview's
Python hook fills (fake_triton.py's "compiles" mode calls it as Triton 3.6's
compile() and backends do)."""
