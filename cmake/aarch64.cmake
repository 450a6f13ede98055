# CMake toolchain file: sysward cross-built for arm64 (AArch64) with Debian's
# cross gcc (gcc-aarch64-linux-gnu) and the arm64 multiarch libraries
# (libseccomp-dev:arm64, libjson-c-dev:arm64, libcap-dev:arm64; see
# scripts/install-deps).  Used by scripts/build-static --arch arm64.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
# pkg-config reads the target's .pc files only (Debian's multiarch paths).
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig)
set(ENV{PKG_CONFIG_PATH} "")
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu /usr/lib/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
# Test programs are run in the guest, not here.
set(CMAKE_CROSSCOMPILING_EMULATOR "")
