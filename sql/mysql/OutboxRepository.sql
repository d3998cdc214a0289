-- OutboxRepository.after
SELECT id, seq, event_id, event, payload, created_at
  FROM outbox_events
  WHERE seq > ?
  ORDER BY seq
  LIMIT 500;

-- OutboxRepository.cursors
SELECT subscriber, last_seq
  FROM outbox_cursors
  WHERE subscriber IN (?, ?);

-- OutboxRepository.firstAfter
SELECT created_at
  FROM outbox_events
  WHERE seq > ?
  ORDER BY seq
  LIMIT 1;

-- OutboxRepository.firstUnsequenced
SELECT MIN(id) AS id
  FROM outbox_events
  WHERE seq IS NULL;

-- OutboxRepository.lockCursor
SELECT last_seq, failures
  FROM outbox_cursors
  WHERE subscriber = ? FOR UPDATE;

-- OutboxRepository.moveCursor
UPDATE outbox_cursors
  SET last_seq = ?, failures = 0, last_error = ?, updated_at = ?
  WHERE subscriber = ?;

-- OutboxRepository.oldestUnsequenced
SELECT MIN(created_at) AS at
  FROM outbox_events
  WHERE seq IS NULL;

-- OutboxRepository.purge
DELETE
  FROM `outbox_events`
  WHERE `seq` <= ? AND `created_at` < ?;
SELECT subscriber, last_seq
  FROM outbox_cursors
  WHERE subscriber IN (?, ?);

-- OutboxRepository.recordFailure
INSERT IGNORE INTO `outbox_cursors`(`subscriber`, `last_seq`, `failures`, `last_error`, `updated_at`)
  VALUES (?, ?, ?, DEFAULT, DEFAULT);
SELECT failures
  FROM outbox_cursors
  WHERE subscriber = ?;
UPDATE outbox_cursors
  SET failures = failures + 1, last_error = ?, updated_at = ?
  WHERE subscriber = ?;

-- OutboxRepository.sequence
SELECT MAX(seq) AS n
  FROM outbox_events;
SELECT last_seq
  FROM outbox_cursors
  WHERE subscriber = ? FOR UPDATE;
UPDATE outbox_cursors
  SET last_seq = ?, failures = 0, last_error = ?, updated_at = ?
  WHERE subscriber = ?;
UPDATE outbox_events
  SET seq = id + ?
  WHERE seq IS NULL AND id >= ? AND id < ?;
