# Engine unit tests (filter compiler, decision logic, program lookup): included from
# tests/unit/CMakeLists.txt.  Table-driven, no live kernel needed.
if(TARGET PkgConfig::CHECK AND TARGET sysward-engine)
  foreach(t test_filter test_decide test_exec_search)
    add_executable(${t} ${CMAKE_CURRENT_LIST_DIR}/${t}.c)
    target_include_directories(${t} PRIVATE ${PROJECT_SOURCE_DIR}/engine
                               ${CMAKE_CURRENT_LIST_DIR})
    target_link_libraries(${t} PRIVATE sysward-engine PkgConfig::CHECK)
    string(REGEX REPLACE "^test_" "" name ${t})
    add_test(NAME unit.${name} COMMAND ${t})
    set_tests_properties(unit.${name} PROPERTIES LABELS unit)
  endforeach()
endif()
