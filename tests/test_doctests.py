"""The examples in the package's docstrings run, against the installed package."""

import doctest

import pytest

import aclnn_emu
from aclnn_emu import _operators, errors, runtime

# _operators: every operator's examples (generated from their descriptions)
MODULES = [aclnn_emu, errors, _operators, runtime]


@pytest.mark.parametrize("module", MODULES, ids=[m.__name__ for m in MODULES])
def test_docstring_examples(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0
    if module is not errors:
        assert result.attempted > 0 or module is aclnn_emu
