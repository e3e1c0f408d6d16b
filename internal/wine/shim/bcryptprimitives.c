/* A test-only stand-in for Windows' bcryptprimitives.dll under Wine 8,
 * which lacks it: the Go runtime fills its random bytes with ProcessPrng,
 * which real Windows (8 and later) exports. This one asks RtlGenRandom
 * (advapi32's SystemFunction036) instead. internal/wine builds it into each
 * test prefix; it is never shipped. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buf, ULONG len);

BOOL WINAPI ProcessPrng(PBYTE buf, SIZE_T len) {
    while (len > 0) {
        ULONG n = len > 0x10000000 ? 0x10000000 : (ULONG)len;
        if (!SystemFunction036(buf, n))
            return FALSE;
        buf += n;
        len -= n;
    }
    return TRUE;
}
