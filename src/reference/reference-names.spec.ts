import { ReferenceNames } from './reference-names';

describe('ReferenceNames: reference names kept a while in the process', () => {
  const table = () => {
    const rows = new Map<number, string>([[1, 'Dutch']]);
    const read = jest.fn(async (_kind: string, id: number) => rows.get(id) ?? null);
    return { rows, read };
  };

  it('reads a name once within the time to keep it, again after it', async () => {
    jest.useFakeTimers({ now: 0 });
    try {
      const { rows, read } = table();
      const names = new ReferenceNames(2000, read);
      expect(await names.nameOf('nationalities', 1)).toBe('Dutch');
      rows.set(1, 'Nederlands'); // another process renames it
      jest.setSystemTime(1999);
      expect(await names.nameOf('nationalities', 1)).toBe('Dutch');
      expect(read).toHaveBeenCalledTimes(1);
      jest.setSystemTime(2000);
      expect(await names.nameOf('nationalities', 1)).toBe('Nederlands');
      expect(read).toHaveBeenCalledTimes(2);
    } finally {
      jest.useRealTimers();
    }
  });

  it('forgets a kind on a write here, keeps no name a read in flight then brought, and never keeps a missing row', async () => {
    const { rows, read } = table();
    const names = new ReferenceNames(60_000, read);
    expect(await names.nameOf('nationalities', 1)).toBe('Dutch');
    expect(await names.nameOf('departments', 1)).toBe('Dutch');
    rows.set(1, 'Nederlands');
    names.forget('nationalities');
    expect(await names.nameOf('nationalities', 1)).toBe('Nederlands');
    expect(await names.nameOf('departments', 1)).toBe('Dutch'); // another kind's names stay
    // A lookup that began before a write: its answer may be the old name, so it is not kept.
    rows.set(1, 'Holland');
    names.forget('nationalities');
    const inFlight = names.nameOf('nationalities', 1);
    names.forget('nationalities');
    rows.set(1, 'Oranje');
    expect(await inFlight).toBe('Holland');
    expect(await names.nameOf('nationalities', 1)).toBe('Oranje');
    // A row not there yet is read again: one made since is found.
    expect(await names.nameOf('nationalities', 2)).toBeNull();
    rows.set(2, 'Belgian');
    expect(await names.nameOf('nationalities', 2)).toBe('Belgian');
  });

  it('keeps nothing when the time to keep is 0', async () => {
    const { read } = table();
    const names = new ReferenceNames(0, read);
    await names.nameOf('nationalities', 1);
    await names.nameOf('nationalities', 1);
    expect(read).toHaveBeenCalledTimes(2);
  });
});
