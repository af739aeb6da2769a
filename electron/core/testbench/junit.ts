// JUnit XML for CI systems (GitHub Actions' test reporters, GitLab, Jenkins): one suite, a test case per case file.
export interface JunitCase {
  name: string;
  file: string;
  ms: number;
  /** A failed check: the snapshot diff or an expectation. */
  failure?: { message: string; details: string };
  /** The case could not run (set-up, invalid case file). */
  error?: { message: string };
}

/** Control characters XML 1.0 cannot hold (a log line may carry them): dropped. */
const notInXml = (code: number) => code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d;

const escape = (text: string) =>
  [...text]
    .filter((ch) => !notInXml(ch.charCodeAt(0)))
    .join('')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

export function junitXml(suite: string, cases: JunitCase[]): string {
  const failures = cases.filter((c) => c.failure).length;
  const errors = cases.filter((c) => c.error).length;
  const seconds = (ms: number) => (ms / 1000).toFixed(3);
  const body = cases.map((c) => {
    const open = `    <testcase classname="${escape(suite)}" name="${escape(c.name)}" file="${escape(c.file)}" time="${seconds(c.ms)}"`;
    if (c.error) return `${open}>\n      <error message="${escape(c.error.message)}"/>\n    </testcase>`;
    if (c.failure) return `${open}>\n      <failure message="${escape(c.failure.message)}">${escape(c.failure.details)}</failure>\n    </testcase>`;
    return `${open}/>`;
  });
  const total = cases.reduce((sum, c) => sum + c.ms, 0);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites tests="${cases.length}" failures="${failures}" errors="${errors}" time="${seconds(total)}">`,
    `  <testsuite name="${escape(suite)}" tests="${cases.length}" failures="${failures}" errors="${errors}" time="${seconds(total)}">`,
    ...body,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
