export type Env = Record<string, string | undefined>;

const DURATION_UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/** '90' (seconds), '45s', '15m', '1h', '30d' → seconds; null when malformed. */
export function parseDuration(value: string): number | null {
  const m = /^(\d+)\s*([smhd]?)$/.exec(value.trim());
  if (!m) return null;
  const seconds = Number(m[1]) * (m[2] ? DURATION_UNITS[m[2]] : 1);
  return seconds > 0 ? seconds : null;
}

const SIZE_UNITS: Record<string, number> = { '': 1, b: 1, kb: 1024, mb: 1024 * 1024 };

/** '1048576', '512kb', '1mb' → bytes; null when malformed. */
export function parseByteSize(value: string): number | null {
  const m = /^(\d+)\s*(b|kb|mb)?$/i.exec(value.trim());
  if (!m) return null;
  const bytes = Number(m[1]) * SIZE_UNITS[(m[2] ?? '').toLowerCase()];
  return bytes > 0 ? bytes : null;
}

/**
 * Reads environment variables for loadConfig and for the namespaces modules declare
 * (declareConfig): each reader notes a bad value as one line naming its variable and returns the
 * default, so that the start fails once, listing every bad variable.
 */
export class ConfigReader {
  readonly problems: string[] = [];

  constructor(private readonly env: Env) {}

  /** The trimmed value, or undefined when unset or blank. */
  get = (name: string): string | undefined => {
    const v = this.env[name];
    return v === undefined || v.trim() === '' ? undefined : v.trim();
  };

  problem = (message: string): void => {
    this.problems.push(message);
  };

  int = (name: string, def: number, min: number, max: number): number => {
    const raw = this.get(name);
    if (raw === undefined) return def;
    const n = Number(raw);
    if (!/^\d+$/.test(raw) || n < min || n > max) {
      this.problem(`${name}: must be an integer from ${min} to ${max}, got "${raw}"`);
      return def;
    }
    return n;
  };

  bool = (name: string, def: boolean): boolean => {
    const raw = this.get(name);
    if (raw === undefined) return def;
    if (/^(true|1|yes)$/i.test(raw)) return true;
    if (/^(false|0|no)$/i.test(raw)) return false;
    this.problem(`${name}: must be true or false, got "${raw}"`);
    return def;
  };

  /** Seconds, from a duration such as 90s, 15m, 1h or 30d. */
  duration = (name: string, def: string): number => {
    const raw = this.get(name) ?? def;
    const s = parseDuration(raw);
    if (s === null) {
      this.problem(`${name}: must be a duration such as 90s, 15m, 1h or 30d, got "${raw}"`);
      return parseDuration(def) as number;
    }
    return s;
  };

  url = (name: string, protocols: string[]): string | null => {
    const raw = this.get(name);
    if (raw === undefined) return null;
    try {
      const u = new URL(raw);
      if (!protocols.includes(u.protocol)) throw new Error('protocol');
      return raw;
    } catch {
      this.problem(`${name}: must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`);
      return null;
    }
  };

  /** Bytes, from a size such as 1048576, 512kb or 50mb. */
  size = (name: string, fallback: string): number => {
    const raw = this.get(name) ?? fallback;
    const bytes = parseByteSize(raw);
    if (bytes === null) this.problem(`${name}: must be a size such as 1048576, 512kb or 50mb, got "${raw}"`);
    return bytes ?? parseByteSize(fallback)!;
  };

  /** One of `values` (case ignored), else a problem and the default. */
  oneOf = <T extends string>(name: string, values: readonly T[], def: T): T => {
    const raw = (this.get(name) ?? def).toLowerCase() as T;
    if (values.includes(raw)) return raw;
    this.problem(`${name}: must be one of ${values.join(', ')}, got "${raw}"`);
    return def;
  };
}
