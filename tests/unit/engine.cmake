# Engine unit tests (filter compiler, decision logic, program lookup): included from
# tests/unit/CMakeLists.txt.  Table-driven, no live kernel needed.
if(TARGET PkgConfig::CHECK AND TARGET sysward)
  foreach(t test_filter test_decide test_exec_search)
    add_executable(${t} ${CMAKE_CURRENT_LIST_DIR}/${t}.c)
    target_include_directories(${t} PRIVATE ${PROJECT_SOURCE_DIR}/daemon/lib
                               ${CMAKE_CURRENT_LIST_DIR})
    target_link_libraries(${t} PRIVATE sysward PkgConfig::CHECK)
    add_test(NAME unit-${t} COMMAND ${t})
    set_tests_properties(unit-${t} PROPERTIES LABELS unit)
  endforeach()
endif()
