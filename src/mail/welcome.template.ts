import Handlebars from 'handlebars';

export interface WelcomeContext {
  name: string;
  username: string;
  temporaryPassword: string;
  loginUrl: string;
  companyName: string;
}

// strict: a missing variable is an error, never a silently empty e-mail. {{ }} escapes HTML.
const html = Handlebars.compile<WelcomeContext>(
  `<!doctype html>
<html><body style="font-family: sans-serif">
<p>Hello {{name}},</p>
<p>An account has been created for you at {{companyName}}.</p>
<p>Username: <strong>{{username}}</strong><br>
Temporary password: <strong>{{temporaryPassword}}</strong></p>
<p>Sign in at <a href="{{loginUrl}}">{{loginUrl}}</a>. You will be asked to choose your own password first.</p>
</body></html>`,
  { strict: true },
);

const text = Handlebars.compile<WelcomeContext>(
  `Hello {{name}},

An account has been created for you at {{companyName}}.

Username: {{username}}
Temporary password: {{temporaryPassword}}

Sign in at {{loginUrl}}. You will be asked to choose your own password first.
`,
  { strict: true, noEscape: true },
);

export function renderWelcome(context: WelcomeContext): { subject: string; html: string; text: string } {
  return { subject: `Your ${context.companyName} account`, html: html(context), text: text(context) };
}
