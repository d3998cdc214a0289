import { compileBoundedTemplate, RenderTemplate, shapeOf, TemplateShape } from '../common/template/template';
import { onNotificationKinds } from '../common/outbox/notification-kinds';

/** The daily (or rate-limited) digest's own template kind, next to the notification kinds. */
export const DIGEST_KIND = 'digest';
/** The kinds a template is written for: every declared notification kind and the digest (kept up to date in place). */
export const TEMPLATE_KINDS: string[] = [];
onNotificationKinds((names) => TEMPLATE_KINDS.splice(0, TEMPLATE_KINDS.length, ...names, DIGEST_KIND));

/** What a notification e-mail's template reads (every kind's the same). */
export const SAMPLE_NOTIFICATION_CONTEXT = {
  recipient: { name: 'Ada Lovelace', username: 'ada' },
  notification: {
    kind: 'leave.requested',
    title: 'Grace Hopper requests leave',
    body: 'Grace Hopper asks for leave from 2026-12-21 to 2026-12-24. Approve or reject it.',
    url: 'https://hr.example.com/app/api/leaves/42',
    created_at: '2026-11-26T09:30:00.000Z',
  },
  company: { name: 'Example Ltd' },
  preferences_url: 'https://hr.example.com/app/api/users/me/notification-preferences',
};
/** What the digest's template reads: the items it collects. */
export const SAMPLE_DIGEST_CONTEXT = {
  recipient: SAMPLE_NOTIFICATION_CONTEXT.recipient,
  company: SAMPLE_NOTIFICATION_CONTEXT.company,
  preferences_url: SAMPLE_NOTIFICATION_CONTEXT.preferences_url,
  count: 2,
  items: [
    SAMPLE_NOTIFICATION_CONTEXT.notification,
    {
      kind: 'task.assigned',
      title: 'New task: Sign the handbook',
      body: 'Sign the handbook (due 2026-12-01), priority High.',
      url: 'https://hr.example.com/app/api/tasks',
      created_at: '2026-11-26T10:00:00.000Z',
    },
  ],
};
export type NotificationContext = typeof SAMPLE_NOTIFICATION_CONTEXT;
export type DigestContext = typeof SAMPLE_DIGEST_CONTEXT;

const NOTIFICATION_SHAPE = shapeOf(SAMPLE_NOTIFICATION_CONTEXT);
const DIGEST_SHAPE = shapeOf(SAMPLE_DIGEST_CONTEXT);

export function templateShapeOf(kind: string): TemplateShape {
  return kind === DIGEST_KIND ? DIGEST_SHAPE : NOTIFICATION_SHAPE;
}

export function sampleContextOf(kind: string): NotificationContext | DigestContext {
  return kind === DIGEST_KIND
    ? SAMPLE_DIGEST_CONTEXT
    : { ...SAMPLE_NOTIFICATION_CONTEXT, notification: { ...SAMPLE_NOTIFICATION_CONTEXT.notification, kind } };
}

export interface TemplateParts {
  subject: string;
  html: string;
  text: string;
}

const FOOTER_HTML =
  '<p style="color:#666;font-size:12px">{{company.name}}. You get this e-mail because of your notification ' +
  'preferences: <a href="{{preferences_url}}">change them</a>.</p>';
const FOOTER_TEXT = '--\n{{company.name}}. Change what you are notified of: {{preferences_url}}';

/** The English template the service ships for the digest. */
const SHIPPED_DIGEST: TemplateParts = {
  subject: '{{count}} notifications from {{company.name}}',
  html:
    '<p>Dear {{recipient.name}},</p><p>{{count}} notifications since the last digest:</p><ul>' +
    '{{#each items}}<li><a href="{{url}}">{{title}}</a><br>{{body}}</li>{{/each}}</ul>' +
    FOOTER_HTML,
  text:
    'Dear {{recipient.name}},\n\n{{count}} notifications since the last digest:\n\n' +
    '{{#each items}}* {{title}}\n  {{body}}\n  {{url}}\n\n{{/each}}' +
    FOOTER_TEXT,
};

/** The English template the service ships for every notification kind. */
const SHIPPED_NOTIFICATION: TemplateParts = {
  subject: '{{notification.title}}',
  html:
    '<p>Dear {{recipient.name}},</p><p>{{notification.body}}</p>' +
    '{{#if notification.url}}<p><a href="{{notification.url}}">Open it</a></p>{{/if}}' +
    FOOTER_HTML,
  text: 'Dear {{recipient.name}},\n\n{{notification.body}}\n\n{{notification.url}}\n\n' + FOOTER_TEXT,
};

/** The English template the service ships for a kind: what it uses until an Admin writes its own. */
export function shippedTemplate(kind: string): TemplateParts {
  return kind === DIGEST_KIND ? SHIPPED_DIGEST : SHIPPED_NOTIFICATION;
}

/** A template's three parts compiled with the bounded interpreter: subject and text unescaped, HTML escaped. */
export interface CompiledTemplate {
  subject: RenderTemplate;
  html: RenderTemplate;
  text: RenderTemplate;
}

/** Compiles the parts (TemplateSyntaxError names the part in `part`). */
export function compileTemplate(kind: string, parts: TemplateParts): CompiledTemplate {
  const shape = templateShapeOf(kind);
  const compile = (part: keyof TemplateParts, plain: boolean) => {
    try {
      return compileBoundedTemplate(parts[part], shape, { plain });
    } catch (err) {
      (err as Error & { part?: string }).part = part;
      throw err;
    }
  };
  return { subject: compile('subject', true), html: compile('html', false), text: compile('text', true) };
}

/** Renders a compiled template: the subject on one line. */
export function renderTemplate(template: CompiledTemplate, context: unknown): TemplateParts {
  return {
    subject: template.subject(context).replace(/\s+/g, ' ').trim().slice(0, 500),
    html: template.html(context),
    text: template.text(context),
  };
}
