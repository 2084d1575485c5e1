# Makes irglc usable from other CMake projects, from this build tree
# (find_package(irglc) with irglc_DIR=<build>) or from an install prefix.

include(CMakePackageConfigHelpers)

set(_irgl_exported irgl_build_flags irgl_host irgl_options irgl_program irgl_gpu irgl_dist)
set_target_properties(irgl_build_flags PROPERTIES EXPORT_NAME build_flags)
set_target_properties(irgl_host PROPERTIES EXPORT_NAME host)
set_target_properties(irgl_options PROPERTIES EXPORT_NAME options)
set_target_properties(irgl_program PROPERTIES EXPORT_NAME program)
set_target_properties(irgl_gpu PROPERTIES EXPORT_NAME gpu)
set_target_properties(irgl_dist PROPERTIES EXPORT_NAME dist)
foreach(target ${_irgl_exported})
  get_target_property(name ${target} EXPORT_NAME)
  add_library(irgl::${name} ALIAS ${target})
endforeach()
set(IRGLC_PRELUDE_FILES ${IRGL_SOURCE_DIR}/runtime/include/irgl/lang/irgl.h)
if(TARGET irglc)
  set(IRGLC_EXECUTABLE $<TARGET_FILE:irglc>)
endif()
include(IrglcAddSources)

# Build tree.
export(TARGETS ${_irgl_exported} NAMESPACE irgl:: FILE ${CMAKE_BINARY_DIR}/irglcTargets.cmake)
set(IRGLC_EXECUTABLE_LOCATION ${IRGL_TOOLS_OUTPUT_DIR}/irglc)
set(IRGLC_PRELUDE_LOCATION ${IRGL_SOURCE_DIR}/runtime/include/irgl/lang)
configure_package_config_file(cmake/irglcConfig.cmake.in ${CMAKE_BINARY_DIR}/irglcConfig.cmake
  INSTALL_DESTINATION ${CMAKE_BINARY_DIR})
configure_file(cmake/IrglcAddSources.cmake ${CMAKE_BINARY_DIR}/IrglcAddSources.cmake COPYONLY)

# Install tree.
install(TARGETS ${_irgl_exported} EXPORT irglcTargets ARCHIVE DESTINATION lib)
install(DIRECTORY runtime/include/ DESTINATION include)
if(TARGET irglc)
  install(TARGETS irglc RUNTIME DESTINATION bin)
endif()
install(EXPORT irglcTargets NAMESPACE irgl:: DESTINATION lib/cmake/irglc)
set(IRGLC_EXECUTABLE_LOCATION "\${PACKAGE_PREFIX_DIR}/bin/irglc")
set(IRGLC_PRELUDE_LOCATION "\${PACKAGE_PREFIX_DIR}/include/irgl/lang")
configure_package_config_file(cmake/irglcConfig.cmake.in
  ${CMAKE_BINARY_DIR}/install-config/irglcConfig.cmake INSTALL_DESTINATION lib/cmake/irglc)
install(FILES ${CMAKE_BINARY_DIR}/install-config/irglcConfig.cmake cmake/IrglcAddSources.cmake
  DESTINATION lib/cmake/irglc)
