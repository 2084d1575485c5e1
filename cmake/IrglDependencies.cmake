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

# Header-only, used inside the libraries' sources only: nlohmann::json (the
# JSON the graph layer and the load report write) and libxxhash (XXH64,
# compiled in with XXH_INLINE_ALL, so binaries do not depend on
# libxxhash.so). Targets add these directories as PRIVATE include
# directories, so that they stay out of what the build exports.
find_package(nlohmann_json 3 REQUIRED)
get_target_property(IRGL_JSON_INCLUDE_DIRS nlohmann_json::nlohmann_json
  INTERFACE_INCLUDE_DIRECTORIES)
find_path(IRGL_XXHASH_INCLUDE_DIR xxhash.h REQUIRED
  DOC "libxxhash's header (Debian: libxxhash-dev)")

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
