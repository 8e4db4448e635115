"""Runs the web client tests and ends with one summary line CI can read: `web: N passed, N failed, N skipped`."""

import sys
import unittest

if __name__ == "__main__":
    suite = unittest.defaultTestLoader.loadTestsFromNames(sys.argv[1:] or ["test_web_client"])
    result = unittest.TextTestRunner(verbosity=2).run(suite)
    failed = len(result.failures) + len(result.errors) + len(result.unexpectedSuccesses)
    skipped = len(result.skipped)
    passed = max(0, result.testsRun - failed - skipped)
    print(f"web: {passed} passed, {failed} failed, {skipped} skipped")
    sys.exit(0 if failed == 0 and result.testsRun > 0 else 1)
