import { addDays } from '../common/time/days';
import { ChecklistStatus, ChecklistTrigger, TemplateConditions, TemplateItem } from './entities/checklist.entities';

/**
 * The rules of lifecycle checklists (issue 67, docs/api/checklists.md) as pure functions: which
 * template a hire, termination or change starts, each item's due day, a checklist's progress and
 * whether it is done. The services read and write; the property test drives these against a model.
 */

/** The employee as a template's conditions read it when its checklist would start. */
export interface ChecklistSubject {
  /** Its department and that department's parents (a template for Engineering covers its teams). */
  departments: number[];
  jobTitle: number | null;
  employmentStatus: number | null;
}

/**
 * Whether a template starts for this trigger and employee: its trigger, and each condition it
 * sets (`changed`: the dated fields a change sets, for `change` templates, which need one of theirs).
 */
export function applies(
  template: { trigger: ChecklistTrigger; conditions: TemplateConditions },
  trigger: ChecklistTrigger,
  subject: ChecklistSubject,
  changed: readonly string[] = [],
): boolean {
  if (template.trigger !== trigger) return false;
  const c = template.conditions;
  if (c.departments?.length && !c.departments.some((d) => subject.departments.includes(d))) return false;
  if (c.job_titles?.length && (subject.jobTitle === null || !c.job_titles.includes(subject.jobTitle))) return false;
  if (
    c.employment_statuses?.length &&
    (subject.employmentStatus === null || !c.employment_statuses.includes(subject.employmentStatus))
  )
    return false;
  if (trigger === 'change' && !(c.fields ?? []).some((f) => changed.includes(f))) return false;
  return true;
}

/**
 * Whether a template's checklist would be over before it starts: every item already past due on
 * `today` (a hire recorded years late, an import of former employees). Such a checklist is not
 * started: it would only remind people of work long done.
 */
export function pastDue(effectiveDate: string, items: ReadonlyArray<Pick<TemplateItem, 'offset_days'>>, today: string): boolean {
  return items.every((item) => dueDate(effectiveDate, item) < today);
}

/** An item's due day: its offset from the effective date. */
export function dueDate(effectiveDate: string, item: Pick<TemplateItem, 'offset_days'>): string {
  return addDays(effectiveDate, item.offset_days);
}

/** How far a checklist is: items Completed of those not Cancelled. */
export function progress(items: ReadonlyArray<{ status: ChecklistStatus }>): { completed: number; total: number } {
  const live = items.filter((i) => i.status !== 'Cancelled');
  return { completed: live.filter((i) => i.status === 'Completed').length, total: live.length };
}

/**
 * A checklist is done once every required item (not Cancelled) is Completed; one without required
 * items, once none is Open and one was Completed.
 */
export function isDone(items: ReadonlyArray<{ status: ChecklistStatus; required: boolean }>): boolean {
  const required = items.filter((i) => i.required && i.status !== 'Cancelled');
  if (required.length) return required.every((i) => i.status === 'Completed');
  return items.every((i) => i.status !== 'Open') && items.some((i) => i.status === 'Completed');
}
