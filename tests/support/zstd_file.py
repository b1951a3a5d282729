"""zstd_file.py - a bundle's FILE.zst read back in a test (format 4,
docs/bundle.md "Kernel files stored once"), through libzstd with ctypes:
the library tkview links is there wherever tkview was built, the zstd
program and Python's zstd modules need not be.

    from zstd_file import read_kernel_file
    text = read_kernel_file(path)   # FILE.zst inflated, any other file as is
"""
import ctypes
import ctypes.util

_lib = None


def _zstd():
    global _lib
    if _lib is None:
        _lib = ctypes.CDLL(ctypes.util.find_library('zstd') or 'libzstd.so.1')
        _lib.ZSTD_getFrameContentSize.restype = ctypes.c_ulonglong
        _lib.ZSTD_getFrameContentSize.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
        _lib.ZSTD_decompress.restype = ctypes.c_size_t
        _lib.ZSTD_decompress.argtypes = [ctypes.c_void_p, ctypes.c_size_t,
                                         ctypes.c_char_p, ctypes.c_size_t]
        _lib.ZSTD_isError.restype = ctypes.c_uint
        _lib.ZSTD_isError.argtypes = [ctypes.c_size_t]
    return _lib


def inflate(frame):
    """The content of one zstd frame that says its size (bytes)."""
    z = _zstd()
    size = z.ZSTD_getFrameContentSize(frame, len(frame))
    assert size < (1 << 40), 'no content size in the frame'
    out = ctypes.create_string_buffer(max(size, 1))
    got = z.ZSTD_decompress(out, size, frame, len(frame))
    assert not z.ZSTD_isError(got) and got == size, (got, size)
    return out.raw[:size]


def read_kernel_file(path):
    """PATH's bytes; a FILE.zst inflated."""
    with open(path, 'rb') as f:
        data = f.read()
    return inflate(data) if path.endswith('.zst') else data
