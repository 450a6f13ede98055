# Engine unit tests (filter compiler, decision logic, program lookup): included from
# tests/unit/CMakeLists.txt.  Table-driven, no live kernel needed.
if(TARGET PkgConfig::CHECK AND TARGET sysward-engine)
  foreach(t test_filter test_decide test_exec_search test_procns test_record)
    add_executable(${t} ${CMAKE_CURRENT_LIST_DIR}/${t}.c)
    target_include_directories(${t} PRIVATE ${PROJECT_SOURCE_DIR}/engine
                               ${CMAKE_CURRENT_LIST_DIR})
    target_link_libraries(${t} PRIVATE sysward-engine PkgConfig::CHECK)
    string(REGEX REPLACE "^test_" "" name ${t})
    add_test(NAME unit.${name} COMMAND ${t})
    set_tests_properties(unit.${name} PROPERTIES LABELS unit)
  endforeach()
endif()

# The supervisor's state machine (engine/tracer.c) against a scripted
# fake kernel: tracer.c and the tables it keeps (session.c, warn.c) are
# compiled in with SW_SYS_FAKE (engine/sys.h),
# and the test defines the rest of the engine that tracer.c calls, so
# sysward-engine (whose tracer.o and actions.o would clash) is not linked.
if(TARGET PkgConfig::CHECK AND TARGET sysward-engine)
  add_executable(test_tracer_events ${CMAKE_CURRENT_LIST_DIR}/test_tracer_events.c
                 ${PROJECT_SOURCE_DIR}/engine/tracer.c
                 ${PROJECT_SOURCE_DIR}/engine/session.c
                 ${PROJECT_SOURCE_DIR}/engine/warn.c)
  target_compile_definitions(test_tracer_events PRIVATE SW_SYS_FAKE)
  target_include_directories(test_tracer_events PRIVATE ${PROJECT_SOURCE_DIR}/engine
                             ${PROJECT_SOURCE_DIR}/include ${CMAKE_CURRENT_LIST_DIR})
  target_link_libraries(test_tracer_events PRIVATE sysward-policy sysward-common
                        PkgConfig::SECCOMP PkgConfig::CHECK pthread)
  add_test(NAME unit.tracer_events COMMAND test_tracer_events)
  set_tests_properties(unit.tracer_events PROPERTIES LABELS unit)
endif()

# The stop handler that applies decisions (engine/actions.c) against a
# scripted fake kernel: which PTRACE_SET_SYSCALL_INFO it makes, how it
# resumes, and that every refusal fails closed.  actions.c and the tables
# it uses (session.c, warn.c) with SW_SYS_FAKE; the test defines the rest.
if(TARGET PkgConfig::CHECK AND TARGET sysward-engine)
  add_executable(test_actions ${CMAKE_CURRENT_LIST_DIR}/test_actions.c
                 ${PROJECT_SOURCE_DIR}/engine/actions.c
                 ${PROJECT_SOURCE_DIR}/engine/session.c
                 ${PROJECT_SOURCE_DIR}/engine/warn.c)
  target_compile_definitions(test_actions PRIVATE SW_SYS_FAKE)
  target_compile_options(test_actions PRIVATE -Wno-unused-parameter)
  target_include_directories(test_actions PRIVATE ${PROJECT_SOURCE_DIR}/engine
                             ${PROJECT_SOURCE_DIR}/include ${CMAKE_CURRENT_LIST_DIR})
  target_link_libraries(test_actions PRIVATE sysward-policy sysward-common
                        PkgConfig::SECCOMP PkgConfig::CHECK pthread)
  add_test(NAME unit.actions COMMAND test_actions)
  set_tests_properties(unit.actions PROPERTIES LABELS unit)
endif()

# The audit log's strings (engine/audit.c): the JSON and text rules.
if(TARGET PkgConfig::CHECK AND TARGET sysward-engine)
  add_executable(test_audit ${CMAKE_CURRENT_LIST_DIR}/test_audit.c)
  target_include_directories(test_audit PRIVATE ${CMAKE_CURRENT_LIST_DIR})
  target_link_libraries(test_audit PRIVATE sysward-engine PkgConfig::CHECK)
  add_test(NAME unit.audit COMMAND test_audit)
  set_tests_properties(unit.audit PROPERTIES LABELS unit)
endif()
