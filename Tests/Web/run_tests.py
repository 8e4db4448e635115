"""Runs the web client tests and ends with one summary line CI can read: `web: N passed, N failed, N skipped`,
after the slowest tests (the whole suite is to stay under ten minutes).

With no arguments it runs every test_*.py module in this folder (one per area); otherwise the tests it is given as
dotted names, such as `test_groups`, `test_groups.GroupTests` or `test_groups.GroupTests.test_gh15_…`."""

import os
import sys
import time
import unittest

SLOWEST_SHOWN = 10


class TimedResult(unittest.TextTestResult):
    """Notes how long each test took."""

    def __init__(self, *arguments, **options):
        super().__init__(*arguments, **options)
        self.durations = []

    def startTest(self, test):
        self.started = time.monotonic()
        super().startTest(test)

    def stopTest(self, test):
        super().stopTest(test)
        self.durations.append((time.monotonic() - self.started, test.id()))


if __name__ == "__main__":
    if sys.argv[1:]:
        suite = unittest.defaultTestLoader.loadTestsFromNames(sys.argv[1:])
    else:
        here = os.path.dirname(os.path.abspath(__file__))
        suite = unittest.defaultTestLoader.discover(here, pattern="test_*.py", top_level_dir=here)
    result = unittest.TextTestRunner(verbosity=2, resultclass=TimedResult).run(suite)
    print(f"the {SLOWEST_SHOWN} slowest tests:")
    for seconds, name in sorted(result.durations, reverse=True)[:SLOWEST_SHOWN]:
        print(f"  {seconds:6.1f} s  {name}")
    failed = len(result.failures) + len(result.errors) + len(result.unexpectedSuccesses)
    skipped = len(result.skipped)
    passed = max(0, result.testsRun - failed - skipped)
    print(f"web: {passed} passed, {failed} failed, {skipped} skipped")
    sys.exit(0 if failed == 0 and result.testsRun > 0 else 1)
