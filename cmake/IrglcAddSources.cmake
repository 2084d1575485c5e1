# irglc_add_sources(<target> SOURCES a.irgl [b.irgl ...]
#                   [SCHEDULE <name>] [OPTIONS <irglc options>...])
#
# Compiles each .irgl file with irglc in library mode at build time (again
# whenever the .irgl file, irglc or its prelude changes) and adds the
# generated .cu to <target>. The generated header, <name>.h, is on the
# target's include path; it declares irglc_<program>::run(...) on an
# irgl::gpu::DeviceGraph. Needs IRGLC_EXECUTABLE (set by find_package(irglc)
# or by irglc's own build) and links the target to irgl::gpu.
function(irglc_add_sources target)
  cmake_parse_arguments(ARG "" "SCHEDULE" "SOURCES;OPTIONS" ${ARGN})
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "irglc_add_sources(${target}): no SOURCES given")
  endif()
  if(NOT IRGLC_EXECUTABLE)
    message(FATAL_ERROR "irglc_add_sources: IRGLC_EXECUTABLE is not set (find_package(irglc) first)")
  endif()
  set(options --emit=library --force ${ARG_OPTIONS})
  if(ARG_SCHEDULE)
    list(APPEND options --schedule=${ARG_SCHEDULE})
  endif()
  set(output_dir ${CMAKE_CURRENT_BINARY_DIR}/irglc_generated/${target})
  file(MAKE_DIRECTORY ${output_dir})
  foreach(source ${ARG_SOURCES})
    get_filename_component(source_path ${source} ABSOLUTE)
    get_filename_component(name ${source} NAME_WE)
    set(cu ${output_dir}/${name}.cu)
    set(header ${output_dir}/${name}.h)
    add_custom_command(
      OUTPUT ${cu} ${header}
      COMMAND ${IRGLC_EXECUTABLE} ${source_path} -o ${cu} ${options}
      DEPENDS ${source_path} ${IRGLC_EXECUTABLE} ${IRGLC_PRELUDE_FILES}
      COMMENT "irglc ${source} -> ${name}.cu"
      VERBATIM)
    target_sources(${target} PRIVATE ${cu} ${header})
  endforeach()
  target_include_directories(${target} PRIVATE ${output_dir})
  target_link_libraries(${target} PRIVATE irgl::gpu)
  target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr>)
endfunction()
