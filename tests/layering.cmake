# SPDX-License-Identifier: MIT
# The tree's layers (tests/layering.py): every #include points down the data
# flow; today's exceptions are listed in tests/layering-allowed.txt, which
# may only shrink. The selftest shows the check fails where it should.
add_test(NAME layering.includes COMMAND ${TH_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/layering.py check)
add_test(NAME layering.selftest COMMAND ${TH_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/layering.py selftest)
