# CMake toolchain file: sysward cross-built for riscv64 (RV64GC, LP64D) with
# Debian's cross gcc (gcc-riscv64-linux-gnu) and the static libseccomp,
# json-c and libcap that scripts/cross-libs builds into a sysroot (Debian 12
# has no riscv64 packages of them).  Used by scripts/build-static --arch
# riscv64, which passes -DSYSWARD_CROSS_LIBS=<that sysroot>.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR riscv64)
set(CMAKE_C_COMPILER riscv64-linux-gnu-gcc)
set(CMAKE_LIBRARY_ARCHITECTURE riscv64-linux-gnu)
if(NOT SYSWARD_CROSS_LIBS)
  message(FATAL_ERROR "cmake/riscv64.cmake needs -DSYSWARD_CROSS_LIBS=$(scripts/cross-libs riscv64)")
endif()
# try_compile's projects read this file too.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES SYSWARD_CROSS_LIBS)
# pkg-config reads the sysroot's .pc files only, their /usr paths under it.
set(ENV{PKG_CONFIG_LIBDIR} ${SYSWARD_CROSS_LIBS}/usr/lib/pkgconfig)
set(ENV{PKG_CONFIG_SYSROOT_DIR} ${SYSWARD_CROSS_LIBS})
set(ENV{PKG_CONFIG_PATH} "")
set(CMAKE_FIND_ROOT_PATH /usr/riscv64-linux-gnu ${SYSWARD_CROSS_LIBS})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
# Test programs are run in the guest, not here.
set(CMAKE_CROSSCOMPILING_EMULATOR "")
