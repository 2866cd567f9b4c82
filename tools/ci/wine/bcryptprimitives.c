/*
 * A stand-in for Windows 10's bcryptprimitives.dll, for running Rookery's Windows build
 * under Wine 8 in the release check only: Wine 8 lacks the one function Rust's standard
 * library imports from it, ProcessPrng. This one fills the buffer from SystemFunction036
 * (RtlGenRandom), which Wine has. It is built into target/ by tools/ci/release.sh, copied
 * beside a binary under test in a scratch folder, and never shipped.
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    while (length > 0) {
        ULONG chunk = length > 0x40000000 ? 0x40000000 : (ULONG)length;
        if (!SystemFunction036(data, chunk))
            return FALSE;
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
