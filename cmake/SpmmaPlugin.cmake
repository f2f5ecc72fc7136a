# spmma_add_plugin(NAME SOURCES src... [LINK lib...] [INSTALL_DIR dir])
# A plugin: a shared module named spmma-NAME.so (C or C++) with only its entry symbol visible,
# linked against the ABI header target spmma::plugin_abi. Used in spmma's own tree and, from the
# installed CMake package (find_package(spmma)), by out-of-tree vendor plugins.
function(spmma_add_plugin name)
  cmake_parse_arguments(ARG "" "INSTALL_DIR" "SOURCES;LINK" ${ARGN})
  set(target spmma_plugin_${name})
  add_library(${target} MODULE ${ARG_SOURCES})
  set_target_properties(${target} PROPERTIES
    PREFIX "" OUTPUT_NAME "spmma-${name}"
    C_VISIBILITY_PRESET hidden CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)
  if(SPMMA_PLUGIN_OUTPUT_DIR)
    set_target_properties(${target} PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${SPMMA_PLUGIN_OUTPUT_DIR})
  endif()
  target_link_libraries(${target} PRIVATE spmma::plugin_abi ${ARG_LINK})
  # Nothing undefined may hide until load time.
  target_link_options(${target} PRIVATE -Wl,--no-undefined)
  if(NOT ARG_INSTALL_DIR)
    set(ARG_INSTALL_DIR ${SPMMA_PLUGIN_INSTALL_DIR})
  endif()
  install(TARGETS ${target} LIBRARY DESTINATION ${ARG_INSTALL_DIR})
  set_property(GLOBAL APPEND PROPERTY SPMMA_PLUGINS ${name})
endfunction()
