# One static library per pipeline stage, whose include path holds only the
# folders of the stages it may include (links under the build tree) and,
# for the stages that use them, LLVM's headers or Clang's: a stage that
# includes anything else fails to build.
#
# weft_stage(<target> SOURCES <files>...
#            STAGES <folders it may include>...   plugin/<x>, runtime/<x> or contract
#            [LLVM <version>]    LLVM's headers without Clang's
#            [CLANG <version>]   Clang's and LLVM's headers
#            [LINK <targets>...] the stages it depends on
#            [PLUGIN_FLAGS]      the plugin's compile flags
#            [OBJECT])           objects linked whole: their static
#                                registrations (a pragma handler, an
#                                attribute) have no other reference
function(weft_stage target)
  cmake_parse_arguments(S "PLUGIN_FLAGS;OBJECT" "LLVM;CLANG" "SOURCES;STAGES;LINK" ${ARGN})
  set(root ${PROJECT_BINARY_DIR}/stage-includes/${target})
  file(REMOVE_RECURSE ${root})
  file(MAKE_DIRECTORY ${root})
  foreach(folder IN LISTS S_STAGES)
    get_filename_component(leaf ${folder} NAME)
    file(CREATE_LINK ${PROJECT_SOURCE_DIR}/${folder} ${root}/${leaf} SYMBOLIC)
  endforeach()
  if(S_LLVM)
    foreach(leaf llvm llvm-c)
      file(CREATE_LINK ${WEFT_CLANG${S_LLVM}_PREFIX}/include/${leaf} ${root}/${leaf} SYMBOLIC)
    endforeach()
  endif()
  if(S_SOURCES AND S_OBJECT)
    add_library(${target} OBJECT ${S_SOURCES})
    set(scope PUBLIC)
  elseif(S_SOURCES)
    add_library(${target} STATIC ${S_SOURCES})
    set(scope PUBLIC)
  else()
    add_library(${target} INTERFACE)
    set(scope INTERFACE)
  endif()
  target_include_directories(${target} ${scope} ${root})
  if(S_CLANG)
    target_include_directories(${target} SYSTEM ${scope} ${WEFT_CLANG${S_CLANG}_PREFIX}/include)
  endif()
  if(S_LINK)
    target_link_libraries(${target} ${scope} ${S_LINK})
  endif()
  if(S_SOURCES AND S_PLUGIN_FLAGS)
    # _GLIBCXX_ASSERTIONS: an index past a container's end stops the
    # compiler at once, instead of corrupting its memory (a crash at random
    # later). -Wno-nonnull: GCC misreads LLVM's LazyOffsetPtr.
    target_compile_definitions(${target} PRIVATE _GLIBCXX_ASSERTIONS
      _GNU_SOURCE __STDC_CONSTANT_MACROS __STDC_FORMAT_MACROS __STDC_LIMIT_MACROS)
    target_compile_options(${target} PRIVATE -fno-exceptions -Wall
      -Wno-unused-parameter -Wno-nonnull)
    set_target_properties(${target} PROPERTIES CXX_STANDARD 17)
  endif()
endfunction()
