# spmma_add_plugin(NAME SOURCES src... [LINK lib...])
# A plugin: a shared module named spmma-NAME.so with only its entry symbol visible, built into
# the plugin folder of the build tree and installed into lib/spmma/plugins.
function(spmma_add_plugin name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LINK" ${ARGN})
  set(target spmma_plugin_${name})
  add_library(${target} MODULE ${ARG_SOURCES})
  set_target_properties(${target} PROPERTIES
    PREFIX "" OUTPUT_NAME "spmma-${name}"
    LIBRARY_OUTPUT_DIRECTORY ${SPMMA_PLUGIN_OUTPUT_DIR}
    C_VISIBILITY_PRESET hidden CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)
  target_link_libraries(${target} PRIVATE spmma_abi ${ARG_LINK})
  # Nothing undefined may hide until load time.
  target_link_options(${target} PRIVATE -Wl,--no-undefined)
  install(TARGETS ${target} LIBRARY DESTINATION ${SPMMA_PLUGIN_INSTALL_DIR})
  set_property(GLOBAL APPEND PROPERTY SPMMA_PLUGINS ${name})
endfunction()
