// Prints, after jest's summary, what was skipped and why: the "[skipped: needs ...]" that
// test/helpers/skip.ts puts in the names, grouped by reason, with the files.
class SkipReporter {
  onRunComplete(_contexts, results) {
    const byReason = new Map();
    for (const file of results.testResults) {
      for (const test of file.testResults) {
        if (test.status !== 'pending' && test.status !== 'skipped') continue;
        const names = [...test.ancestorTitles, test.title].join(' ');
        const reason = /\[skipped: needs ([^\]]+)\]/.exec(names)?.[1] ?? 'no reason given (a focused or filtered run)';
        const files = byReason.get(reason) ?? new Map();
        const rel = file.testFilePath.replace(`${process.cwd()}/`, '');
        files.set(rel, (files.get(rel) ?? 0) + 1);
        byReason.set(reason, files);
      }
    }
    if (!byReason.size) return;
    const lines = ['', 'Skipped, and why:'];
    for (const [reason, files] of byReason) {
      const tests = [...files.values()].reduce((a, b) => a + b, 0);
      lines.push(`  needs ${reason}: ${tests} test(s) in ${files.size} file(s)`);
      for (const [f, n] of files) lines.push(`    ${f} (${n})`);
    }
    process.stderr.write(`${lines.join('\n')}\n`);
  }
}
module.exports = SkipReporter;
