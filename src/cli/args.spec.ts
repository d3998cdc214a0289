import { parseArgs, UsageError } from './args';

describe('CLI arguments (node:util parseArgs)', () => {
  it('takes positionals and --name value / --name=value, and names what is wrong', () => {
    expect(parseArgs(['a', '--username', 'u', '--email=e@x.test', 'b'], ['username', 'email'])).toEqual({
      positionals: ['a', 'b'],
      options: { username: 'u', email: 'e@x.test' },
    });
    const refused: Array<[string[], string]> = [
      [['--level', 'Admin'], 'unknown option --level'],
      [['-u', 'x'], 'unknown option -u'],
      [['--username'], '--username needs a value'],
      [['--username', '--email', 'e'], '--username needs a value'],
    ];
    for (const [argv, message] of refused) {
      expect(() => parseArgs(argv, ['username', 'email'])).toThrow(new UsageError(message));
    }
  });
});
