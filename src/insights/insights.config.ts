import { declareConfig } from '../config/config';

/** The insights' configuration, declared beside the module that reads it. */
declare module '../config/config' {
  interface ModuleConfig {
    /** How long an insights figure is reused per scope and period (0: computed on every request). */
    insightsCacheMs: number;
  }
}

declareConfig('insightsCacheMs', ({ int }) => int('INSIGHTS_CACHE_MS', 30_000, 0, 3_600_000));
