/* tk_export.h - TK_API: what libtkdump exports.
 *
 * The library is compiled with hidden visibility: a symbol is visible to a
 * program only when its declaration in a public header carries TK_API, so
 * the library's internal functions never become part of its interface.  Every
 * public header includes this one; an embedder never needs to.
 */
#ifndef TKDUMP_TK_EXPORT_H
#define TKDUMP_TK_EXPORT_H

#if defined(__GNUC__) || defined(__clang__)
#define TK_API __attribute__((visibility("default")))
#else
#define TK_API
#endif

#endif
