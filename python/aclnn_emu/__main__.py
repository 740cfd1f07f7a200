"""``python -m aclnn_emu`` is the ``aclnn-emu`` command."""

import sys

from .cli import main

sys.exit(main())
