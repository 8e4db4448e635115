"""Runs the web client tests and ends with one summary line CI can read: `web: N passed, N failed, N skipped`,
after the time of each file and the slowest tests (the whole suite is to stay under ten minutes).

With no arguments it runs every test_*.py module in this folder (one per area); otherwise the tests it is given as
dotted names, such as `test_groups`, `test_groups.GroupTests` or `test_groups.GroupTests.test_gh15_…`."""

import os
import sys
import time
import unittest

SLOWEST_SHOWN = 10


class TimedResult(unittest.TextTestResult):
    """Notes how long each test took, and each file: the time from the end of one test to the end of the next is
    its file's, so a file's time includes its setUpModule and setUpClass."""

    def __init__(self, *arguments, **options):
        super().__init__(*arguments, **options)
        self.durations = []
        self.file_seconds = {}
        self.last_stopped = time.monotonic()

    def startTest(self, test):
        self.started = time.monotonic()
        super().startTest(test)

    def stopTest(self, test):
        super().stopTest(test)
        now = time.monotonic()
        self.durations.append((now - self.started, test.id()))
        file = type(test).__module__ + ".py"
        self.file_seconds[file] = self.file_seconds.get(file, 0) + now - self.last_stopped
        self.last_stopped = now


if __name__ == "__main__":
    if sys.argv[1:]:
        suite = unittest.defaultTestLoader.loadTestsFromNames(sys.argv[1:])
    else:
        here = os.path.dirname(os.path.abspath(__file__))
        suite = unittest.defaultTestLoader.discover(here, pattern="test_*.py", top_level_dir=here)
    result = unittest.TextTestRunner(verbosity=2, resultclass=TimedResult).run(suite)
    for file, seconds in sorted(result.file_seconds.items(), key=lambda item: item[1], reverse=True):
        print(f"file {seconds:6.1f} s  {file}")
    print(f"the {SLOWEST_SHOWN} slowest tests:")
    for seconds, name in sorted(result.durations, reverse=True)[:SLOWEST_SHOWN]:
        print(f"  {seconds:6.1f} s  {name}")
    failed = len(result.failures) + len(result.errors) + len(result.unexpectedSuccesses)
    skipped = len(result.skipped)
    passed = max(0, result.testsRun - failed - skipped)
    print(f"web: {passed} passed, {failed} failed, {skipped} skipped")
    sys.exit(0 if failed == 0 and result.testsRun > 0 else 1)
