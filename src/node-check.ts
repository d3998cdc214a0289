/**
 * The Node.js this service needs, checked by every entry point (main, worker, cli) before anything
 * native is loaded: better-sqlite3 13 crashes older ones with a segmentation fault and no word
 * (docs/operations.md, "Which Node"). Kept equal to package.json's engines by a test.
 */
export const REQUIRED_NODE = '22.15.0';

/** Why `version` (process.versions.node) cannot run the service, or null when it can. */
export function nodeVersionProblem(version: string): string | null {
  const have = version.split('.').map(Number);
  const need = REQUIRED_NODE.split('.').map(Number);
  for (let i = 0; i < need.length; i++) {
    if ((have[i] ?? 0) > need[i]) return null;
    if ((have[i] ?? 0) < need[i]) {
      return (
        `hr-service needs Node.js ${REQUIRED_NODE} or newer and this is Node.js ${version}: ` +
        'run the Node that npm install brings (./bin/hr <command>, npm start, or node_modules/.bin/node dist/src/main.js)'
      );
    }
  }
  return null;
}

const problem = nodeVersionProblem(process.versions.node);
if (problem) {
  process.stderr.write(`${problem}\n`);
  process.exit(1);
}
