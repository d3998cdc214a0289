// Lints source texts with the project's ESLint configuration, as if they stood at the paths given
// (none of them exists): reads [{ filePath, code }] as JSON on stdin, prints [[ruleId, message], ...]
// per text. ESLint loads eslint.config.mjs with import(), which a jest test cannot: the test runs this.
import { ESLint } from 'eslint';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
let input = '';
for await (const chunk of process.stdin) input += chunk;
const texts = JSON.parse(input);
const eslint = new ESLint({
  cwd: root,
  overrideConfig: [
    { languageOptions: { parserOptions: { projectService: { allowDefaultProject: texts.map((t) => t.filePath) } } } },
  ],
});
const out = [];
for (const t of texts) {
  const [result] = await eslint.lintText(t.code, { filePath: join(root, t.filePath) });
  out.push(result.messages.map((m) => [m.ruleId, m.message]));
}
process.stdout.write(JSON.stringify(out));
