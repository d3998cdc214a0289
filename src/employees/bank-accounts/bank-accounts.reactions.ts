import { Injectable, OnModuleInit } from '@nestjs/common';
import { declareNotificationKinds } from '../../common/outbox/notification-kinds';
import { Reactions } from '../../common/outbox/reactions';
import '../employees.events';

declareNotificationKinds({
  'employee.bank_account_changed': {
    description: 'a bank account of yours was added, changed or removed',
    email: true,
    inApp: true,
    mandatory: true,
  },
});

/** A change of an employee's bank accounts tells the employee, in the feed and by e-mail (mandatory: it cannot be turned off). */
@Injectable()
export class BankAccountsReactions implements OnModuleInit {
  constructor(private readonly reactions: Reactions) {}

  onModuleInit(): void {
    this.reactions.on('employee.bank_account_changed', {
      notify: async (p) => {
        if (p.employee === null) return null;
        // An account's IBAN never changes: it is in the changes of an added ([null, iban]) or a
        // removed ([iban, null]) account only; a change (holder name, BIC, primary) leaves it out.
        const [before, after] = p.changes.iban_masked ?? [undefined, undefined];
        const what = before === null ? 'added' : after === null ? 'removed' : 'changed';
        const masked = after ?? before;
        return {
          to: [{ usersOf: p.employee }],
          title: `A bank account of yours was ${what}`,
          body:
            `The bank account${typeof masked === 'string' ? ` ${masked}` : ''} your pay goes to was ${what}. ` +
            'If you did not ask for this, tell your HR administrator at once.',
          link: `/employees/${p.employee}/bank-accounts`,
        };
      },
    });
  }
}
