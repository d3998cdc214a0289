/**
 * A strict parser of the Prometheus text exposition format 0.0.4 (HELP and TYPE lines, samples with
 * escaped label values, histogram series), for the metrics tests. It throws on any line the format
 * does not allow, on a sample of an undeclared family, on a histogram whose buckets are not
 * cumulative or whose +Inf bucket is not its count, and on duplicate series.
 */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  name: string;
  type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';
  help: string;
  samples: Sample[];
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const SAMPLE_RE = new RegExp(`^(${NAME})(?:\\{(.*)\\})? (\\S+)(?: (-?\\d+))?$`);
const LABEL_RE = /^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"(,|$)/;

function parseValue(raw: string, line: string): number {
  // As Prometheus reads them (Go's ParseFloat): NaN and infinities in any case.
  if (/^[+]?inf(inity)?$/i.test(raw)) return Infinity;
  if (/^-inf(inity)?$/i.test(raw)) return -Infinity;
  if (/^nan$/i.test(raw)) return NaN;
  const n = Number(raw);
  if (raw === '' || Number.isNaN(n)) throw new Error(`bad value in: ${line}`);
  return n;
}

function parseLabels(body: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  let rest = body;
  while (rest.length) {
    const m = LABEL_RE.exec(rest);
    if (!m) throw new Error(`bad labels in: ${line}`);
    if (m[1] in labels) throw new Error(`label ${m[1]} twice in: ${line}`);
    labels[m[1]] = m[2].replace(/\\(["\\n])/g, (_s, c: string) => (c === 'n' ? '\n' : c));
    rest = rest.slice(m[0].length);
  }
  return labels;
}

export function parsePrometheusText(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const family = (name: string): Family => {
    let f = families.get(name);
    if (!f) families.set(name, (f = { name, type: 'untyped', help: '', samples: [] }));
    return f;
  };
  const owner = (sample: string): Family | undefined => {
    const base = sample.replace(/_(bucket|sum|count)$/, '');
    const f = families.get(base);
    if (f && (f.type === 'histogram' || f.type === 'summary') && base !== sample) return f;
    return families.get(sample);
  };
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const meta = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
    if (meta) {
      if (!new RegExp(`^${NAME}$`).test(meta[2])) throw new Error(`bad metric name in: ${line}`);
      const f = family(meta[2]);
      if (meta[1] === 'HELP') f.help = meta[3];
      else if (['counter', 'gauge', 'histogram', 'summary', 'untyped'].includes(meta[3])) f.type = meta[3] as Family['type'];
      else throw new Error(`bad type in: ${line}`);
      continue;
    }
    if (line.startsWith('#')) continue;
    const m = SAMPLE_RE.exec(line);
    if (!m) throw new Error(`not a sample: ${line}`);
    const f = owner(m[1]);
    if (!f) throw new Error(`sample of an undeclared family: ${line}`);
    f.samples.push({ name: m[1], labels: m[2] ? parseLabels(m[2], line) : {}, value: parseValue(m[3], line) });
  }
  for (const f of families.values()) {
    const seen = new Set<string>();
    for (const s of f.samples) {
      const key = `${s.name}${JSON.stringify(Object.entries(s.labels).sort())}`;
      if (seen.has(key)) throw new Error(`duplicate series ${key}`);
      seen.add(key);
    }
    if (f.type === 'histogram') checkHistogram(f);
  }
  return families;
}

function checkHistogram(f: Family): void {
  const series = new Map<string, { buckets: Array<[number, number]>; count?: number }>();
  const key = (labels: Record<string, string>) =>
    JSON.stringify(
      Object.entries(labels)
        .filter(([k]) => k !== 'le')
        .sort(),
    );
  for (const s of f.samples) {
    const k = key(s.labels);
    if (!series.has(k)) series.set(k, { buckets: [] });
    const entry = series.get(k)!;
    if (s.name.endsWith('_bucket')) entry.buckets.push([parseValue(s.labels.le, f.name), s.value]);
    else if (s.name.endsWith('_count')) entry.count = s.value;
  }
  for (const [k, { buckets, count }] of series) {
    buckets.sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < buckets.length; i++)
      if (buckets[i][1] < buckets[i - 1][1]) throw new Error(`${f.name}${k}: buckets not cumulative`);
    const inf = buckets[buckets.length - 1];
    if (!inf || inf[0] !== Infinity || inf[1] !== count) throw new Error(`${f.name}${k}: +Inf bucket is not the count`);
  }
}

/** The `_count` of the histogram series whose labels include `labels` (0 when there is none). */
export function histogramCount(f: Family | undefined, labels: Record<string, string>): number {
  const s = f?.samples.find((x) => x.name === `${f.name}_count` && Object.entries(labels).every(([k, v]) => x.labels[k] === v));
  return s?.value ?? 0;
}
