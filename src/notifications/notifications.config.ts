import { declareConfig } from '../config/config';

/** The notifications' configuration (NOTIFICATION_*), declared beside the module that reads it. */
declare module '../config/config' {
  interface ModuleConfig {
    /** Notifications (issue 30): made from the outbox's events, shown in the feed and its stream. */
    notifications: {
      /** Open streams one user may hold per API process (NOTIFICATION_STREAMS_PER_USER); more → 429. */
      streamsPerUser: number;
      /** A comment line on every open stream this often, so proxies keep it open (NOTIFICATION_HEARTBEAT_MS). */
      heartbeatMs: number;
      /** Immediate e-mails one user gets per hour (NOTIFICATION_EMAILS_PER_HOUR); beyond, they wait for a digest an hour later. */
      emailsPerHour: number;
      /** How often a consuming process looks for notification e-mails and digests that are due (NOTIFICATION_EMAIL_SWEEP_MS). */
      emailSweepMs: number;
    };
  }
}

declareConfig('notifications', ({ int }) => ({
  streamsPerUser: int('NOTIFICATION_STREAMS_PER_USER', 5, 1, 100),
  heartbeatMs: int('NOTIFICATION_HEARTBEAT_MS', 15_000, 100, 300_000),
  emailsPerHour: int('NOTIFICATION_EMAILS_PER_HOUR', 20, 1, 10_000),
  emailSweepMs: int('NOTIFICATION_EMAIL_SWEEP_MS', 5_000, 10, 600_000),
}));
