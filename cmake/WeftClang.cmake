# Finds the Clang versions the plugin is built for. The plugin links no Clang
# library (clang itself provides the symbols), so only headers and flags are
# needed, one set per version: a plugin built for one version dies in another.
set(WEFT_CLANG_VERSIONS "22;19" CACHE STRING "Clang major versions to build the plugin for")

set(WEFT_CLANGS "")
foreach(ver IN LISTS WEFT_CLANG_VERSIONS)
  set(prefix /usr/lib/llvm-${ver})
  if(EXISTS ${prefix}/include/clang/Basic/ParsedAttrInfo.h AND EXISTS ${prefix}/bin/clang)
    list(APPEND WEFT_CLANGS ${ver})
    set(WEFT_CLANG${ver}_PREFIX ${prefix})
    message(STATUS "weft: building the plugin for Clang ${ver} (${prefix})")
  else()
    message(STATUS "weft: Clang ${ver} development files not found in ${prefix}; no plugin for it")
  endif()
endforeach()
if(NOT WEFT_CLANGS)
  message(FATAL_ERROR "weft: no Clang development files found (install clang-22 libclang-22-dev llvm-22-dev)")
endif()
list(GET WEFT_CLANGS 0 WEFT_DEFAULT_CLANG)
