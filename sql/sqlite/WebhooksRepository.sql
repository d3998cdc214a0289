-- WebhooksRepository.undispatched
SELECT id, event_id, event, created_at
  FROM webhook_outbox
  WHERE dispatched_at IS NULL
  ORDER BY id
  LIMIT 500;
