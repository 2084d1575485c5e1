# Building .irgl programs with irglc from a CMake project (find_package(irglc)
# or irglc's own build). Both functions regenerate the code at build time,
# whenever the .irgl file, irglc or its prelude changes. They need
# IRGLC_EXECUTABLE and IRGLC_PRELUDE_FILES (set by find_package(irglc) or by
# irglc's own build). The GPU code is built for CMAKE_CUDA_ARCHITECTURES
# (irglc's own build and the consumer example default to 90, Hopper; set it
# to e.g. "80;90" before project() for more).
#
# irglc_add_sources(<target> SOURCES a.irgl [b.irgl ...] [CPU]
#                   [SCHEDULE <name>] [DEVICE_LAUNCHES] [OPTIONS <irglc options>...])
#   Library mode: adds each program's generated .cu to <target>; the
#   generated header, <name>.h, is on the target's include path and declares
#   irglc_<program>::run(...) on an irgl::gpu::DeviceGraph. Links irgl::gpu.
#   CPU: the sequential reference instead, a .cpp whose run(...) takes an
#   irgl::CsrGraph in host memory (no GPU or CUDA compiler needed); links
#   irgl::program.
#
# irglc_add_program(<target> SOURCE a.irgl [CPU]
#                   [SCHEDULE <name>] [DEVICE_LAUNCHES] [OPTIONS <irglc options>...])
#   Program mode: <target> is the runnable program (its command line: graph,
#   parameters, --runs, --output, ...; docs/language.md). CUDA by default;
#   CPU builds the sequential reference (no GPU or CUDA compiler needed).
#
# SCHEDULE dp (and DEVICE_LAUNCHES, for programs whose pragmas select dp)
# builds with relocatable device code and links CUDA's device runtime
# (cudadevrt), which dp's device-side launches need.

# The command that writes `output` (and, in library mode, its header) from
# `source`; `outputs` lists the files it makes.
function(_irglc_generate source outputs)
  get_filename_component(source_path ${source} ABSOLUTE)
  list(GET outputs 0 output)
  get_filename_component(name ${source} NAME)
  get_filename_component(output_name ${output} NAME)
  add_custom_command(
    OUTPUT ${outputs}
    COMMAND ${IRGLC_EXECUTABLE} ${source_path} -o ${output} --force ${ARGN}
    DEPENDS ${source_path} ${IRGLC_EXECUTABLE} ${IRGLC_PRELUDE_FILES}
    COMMENT "irglc ${name} -> ${output_name}"
    VERBATIM)
endfunction()

# Generated code includes the language runtime (<irgl.h> for the CPU
# target) from the prelude directory.
function(_irglc_use_prelude target)
  list(GET IRGLC_PRELUDE_FILES 0 prelude)
  get_filename_component(prelude_dir ${prelude} DIRECTORY)
  target_include_directories(${target} PRIVATE ${prelude_dir})
endfunction()

# Generated CUDA links the GPU runtime. Schedule dp launches child grids
# from the device (CUDA dynamic parallelism): with --schedule=dp among the
# irglc options (ARGN), or with DEVICE_LAUNCHES (a pragma selects dp),
# relocatable device code and the device runtime.
function(_irglc_use_gpu target device_launches)
  target_link_libraries(${target} PRIVATE irgl::gpu)
  target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr>)
  foreach(option ${ARGN})
    if(option MATCHES "^--schedule=dp(,|$)")
      set(device_launches TRUE)
    endif()
  endforeach()
  if(device_launches)
    # CMake links the device runtime (cudadevrt) with the CUDA runtime.
    set_target_properties(${target} PROPERTIES CUDA_SEPARABLE_COMPILATION ON)
  endif()
endfunction()

function(_irglc_check_setup caller)
  if(NOT IRGLC_EXECUTABLE)
    message(FATAL_ERROR "${caller}: IRGLC_EXECUTABLE is not set (find_package(irglc) first)")
  endif()
endfunction()

function(irglc_add_sources target)
  cmake_parse_arguments(ARG "CPU;DEVICE_LAUNCHES" "SCHEDULE" "SOURCES;OPTIONS" ${ARGN})
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "irglc_add_sources(${target}): no SOURCES given")
  endif()
  _irglc_check_setup(irglc_add_sources)
  set(options --emit=library ${ARG_OPTIONS})
  if(ARG_SCHEDULE)
    list(APPEND options --schedule=${ARG_SCHEDULE})
  endif()
  set(extension .cu)
  if(ARG_CPU)
    list(APPEND options --target=cpu)
    set(extension .cpp)
  endif()
  set(output_dir ${CMAKE_CURRENT_BINARY_DIR}/irglc_generated/${target})
  file(MAKE_DIRECTORY ${output_dir})
  foreach(source ${ARG_SOURCES})
    get_filename_component(name ${source} NAME_WE)
    set(generated ${output_dir}/${name}${extension} ${output_dir}/${name}.h)
    _irglc_generate(${source} "${generated}" ${options})
    target_sources(${target} PRIVATE ${generated})
  endforeach()
  target_include_directories(${target} PRIVATE ${output_dir})
  if(ARG_CPU)
    _irglc_use_prelude(${target})
    target_link_libraries(${target} PRIVATE irgl::program)
  else()
    _irglc_use_gpu(${target} ${ARG_DEVICE_LAUNCHES} ${options})
  endif()
endfunction()

function(irglc_add_program target)
  cmake_parse_arguments(ARG "CPU;DEVICE_LAUNCHES" "SOURCE;SCHEDULE" "OPTIONS" ${ARGN})
  if(NOT ARG_SOURCE)
    message(FATAL_ERROR "irglc_add_program(${target}): no SOURCE given")
  endif()
  _irglc_check_setup(irglc_add_program)
  set(options ${ARG_OPTIONS})
  if(ARG_SCHEDULE)
    list(APPEND options --schedule=${ARG_SCHEDULE})
  endif()
  set(output_dir ${CMAKE_CURRENT_BINARY_DIR}/irglc_generated)
  file(MAKE_DIRECTORY ${output_dir})
  if(ARG_CPU)
    set(generated ${output_dir}/${target}.cpp)
    list(APPEND options --target=cpu)
  else()
    set(generated ${output_dir}/${target}.cu)
  endif()
  _irglc_generate(${ARG_SOURCE} ${generated} ${options})
  add_executable(${target} ${generated})
  _irglc_use_prelude(${target})
  target_link_libraries(${target} PRIVATE irgl::program)
  if(NOT ARG_CPU)
    _irglc_use_gpu(${target} ${ARG_DEVICE_LAUNCHES} ${options})
  endif()
  if("--gpus=many" IN_LIST options)  # one process per GPU, NCCL between them
    target_link_libraries(${target} PRIVATE irgl::dist)
  endif()
endfunction()
