# Third-party dependencies, all from Debian packages (see tools/setup.sh).

find_package(Threads REQUIRED)
# 12.4: conditional graph nodes (outlined loops' --outline=graph).
find_package(CUDAToolkit 12.4 REQUIRED)

if(IRGL_PORTABLE_BINARIES)
  set(Boost_USE_STATIC_LIBS ON)
endif()
find_package(Boost 1.74 REQUIRED COMPONENTS program_options)

# zlib and liblzma: prefer the static archives for portable binaries.
if(IRGL_PORTABLE_BINARIES)
  set(_irgl_saved_suffixes ${CMAKE_FIND_LIBRARY_SUFFIXES})
  set(CMAKE_FIND_LIBRARY_SUFFIXES .a ${CMAKE_FIND_LIBRARY_SUFFIXES})
endif()
find_package(ZLIB REQUIRED)
find_package(LibLZMA REQUIRED)
if(IRGL_PORTABLE_BINARIES)
  set(CMAKE_FIND_LIBRARY_SUFFIXES ${_irgl_saved_suffixes})
endif()

# Options every irgl target gets.
add_library(irgl_build_flags INTERFACE)
target_compile_options(irgl_build_flags INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wno-unused-parameter>
  $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall --expt-relaxed-constexpr>)

# irgl_make_portable(target): for executables that must run on other machines
# (the GPU machine has no Boost and may have another libstdc++).
function(irgl_make_portable target)
  if(IRGL_PORTABLE_BINARIES)
    target_link_options(${target} PRIVATE -static-libstdc++ -static-libgcc)
  endif()
endfunction()
