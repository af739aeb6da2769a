// Global setup for a test run: every temporary folder the run makes (tests, their workers, the hosts they start) lands
// in one scratch folder that goes when the run ends, so repeated runs do not fill the machine's /tmp. The test
// processes inherit TMPDIR, which os.tmpdir() and mktemp read.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export default function scratchTmp(): () => void {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'cw-run-'));
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = scratch;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    fs.rmSync(scratch, { recursive: true, force: true });
  };
}
