# Engine unit tests (filter compiler, decision logic, program lookup, the
# descriptors a program starts with): included from
# tests/unit/CMakeLists.txt.  Table-driven; only test_fds uses the kernel
# (its own descriptor table).
if(TARGET PkgConfig::CHECK AND TARGET sysward-engine)
  foreach(t test_filter test_decide test_exec_search test_procns test_nsbox test_record test_fds
            test_fsrules test_pathrules)
    add_executable(${t} ${CMAKE_CURRENT_LIST_DIR}/${t}.c)
    target_include_directories(${t} PRIVATE ${PROJECT_SOURCE_DIR}/engine
                               ${CMAKE_CURRENT_LIST_DIR})
    target_link_libraries(${t} PRIVATE sysward-engine PkgConfig::CHECK)
    string(REGEX REPLACE "^test_" "" name ${t})
    add_test(NAME unit.${name} COMMAND ${t})
    set_tests_properties(unit.${name} PROPERTIES LABELS unit)
  endforeach()
  target_compile_definitions(test_pathrules PRIVATE SW_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
endif()

# The real engine's stop handlers against a scripted fake kernel
# (fake_kernel.c): the whole engine built with SW_SYS_FAKE
# (sysward-engine-fake, engine/sys.h), no engine function stubbed.
#   tracer_events: the supervisor's bookkeeping under every event order
#   actions: every PTRACE_SET_SYSCALL_INFO a decision makes, and refusals
#   guardsetup: the path guard's injection, one stop at a time
#   signals: route 11, signals.c and reach.c over the fake /proc
#   peers: route 19, a unix connection's peer and the session's hold
#   objects: route 20, objects.c and resultcheck.c: checked results,
#     injected calls, held threads
#   strings: where the reader of tracee memory runs (beside its tracer)
if(TARGET PkgConfig::CHECK AND TARGET sysward-engine-fake)
  foreach(name tracer_events actions guardsetup signals peers objects strings)
    add_executable(test_${name} ${CMAKE_CURRENT_LIST_DIR}/test_${name}.c
                   ${CMAKE_CURRENT_LIST_DIR}/fake_kernel.c)
    target_include_directories(test_${name} PRIVATE ${PROJECT_SOURCE_DIR}/engine
                               ${CMAKE_CURRENT_LIST_DIR})
    target_link_libraries(test_${name} PRIVATE sysward-engine-fake PkgConfig::CHECK)
    add_test(NAME unit.${name} COMMAND test_${name})
    set_tests_properties(unit.${name} PROPERTIES LABELS unit)
  endforeach()
endif()

# The audit log's strings (engine/record/audit.c): the JSON and text rules; the
# decoder of arguments (engine/record/decode.c) against strace's text.
if(TARGET PkgConfig::CHECK AND TARGET sysward-engine)
  foreach(name audit decode)
    add_executable(test_${name} ${CMAKE_CURRENT_LIST_DIR}/test_${name}.c)
    target_include_directories(test_${name} PRIVATE ${CMAKE_CURRENT_LIST_DIR})
    target_link_libraries(test_${name} PRIVATE sysward-engine PkgConfig::CHECK)
    add_test(NAME unit.${name} COMMAND test_${name})
    set_tests_properties(unit.${name} PROPERTIES LABELS unit)
  endforeach()
endif()
