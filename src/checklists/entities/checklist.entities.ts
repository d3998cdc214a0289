import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { DATED_FIELDS as EMPLOYEE_DATED_FIELDS } from '../../employees/history/employment-history';

/** What starts a checklist (docs/api/checklists.md). */
export const CHECKLIST_TRIGGERS = ['hire', 'termination', 'transfer', 'change'] as const;
export type ChecklistTrigger = (typeof CHECKLIST_TRIGGERS)[number];

/** The rules' bounds (docs/api/checklists.md). */
/** An item's assignee: a role of the employee's, the Admins, or a named employee. */
export const ASSIGNEE_ROLE = /^(employee|supervisor|department_head|admins|employee:[1-9]\d{0,9})$/;
/** The dated fields (docs/api/decisions.md §19) whose change can start a `change` checklist: the employee's and its salary. */
export const DATED_FIELDS: readonly string[] = [...EMPLOYEE_DATED_FIELDS, 'salary'];
/** An item is due this many days from the effective date at the earliest and at the latest. */
export const OFFSET_RANGE = [-60, 120] as const;
export const MAX_ITEMS = 50;

export const CHECKLIST_STATUSES = ['Open', 'Completed', 'Cancelled'] as const;
export type ChecklistStatus = (typeof CHECKLIST_STATUSES)[number];

/** Which employees and changes a template applies to; every condition set must hold. */
export interface TemplateConditions {
  departments?: number[];
  job_titles?: number[];
  employment_statuses?: number[];
  /** The dated fields whose change starts a `change` checklist (any of them). */
  fields?: string[];
}

/** One item of a template: who does it, when (days from the effective date), what completes it. */
export interface TemplateItem {
  title: string;
  description: string | null;
  /** `employee`, `supervisor`, `department_head`, `admins` or `employee:<id>`. */
  assignee: string;
  offset_days: number;
  /** A document of this type uploaded for the employee completes the item. */
  document_type: number | null;
  required: boolean;
}

/** A template of the items a hire, termination, transfer or other dated change brings (issue 67). */
@Entity('checklist_templates')
export class ChecklistTemplate {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  @Column({ type: 'varchar', length: 100 }) name: string;
  @Column({ name: 'trigger_kind', type: 'varchar', length: 12 }) trigger: ChecklistTrigger;
  @Column({ type: 'simple-json' }) conditions: TemplateConditions;
  @Column({ type: 'simple-json' }) items: TemplateItem[];
  @CreateDateColumn({ name: 'created_at', type: 'datetime' }) createdAt: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'datetime' }) updatedAt: Date;
}

/**
 * A template started for an employee by what it records (`origin`: `hire`, `termination`, or
 * `change:<id>` for the dated change that started it; one checklist per template, employee and
 * origin, whatever replays the event). The template's name and trigger are copied: a template
 * changed or deleted later changes no checklist.
 */
@Entity('checklists')
@Index('uq_checklists_origin', ['templateId', 'employeeId', 'origin'], { unique: true })
@Index('ix_checklists_employee', ['employeeId', 'status'])
@Index('ix_checklists_status', ['status', 'id'])
export class Checklist {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  @Column({ name: 'template_id', type: 'integer' }) templateId: number;
  @Column({ name: 'template_name', type: 'varchar', length: 100 }) templateName: string;
  @Column({ name: 'employee_id', type: 'integer' }) employeeId: number;
  @Column({ name: 'trigger_kind', type: 'varchar', length: 12 }) trigger: ChecklistTrigger;
  @Column({ type: 'varchar', length: 40 }) origin: string;
  @Column({ name: 'effective_date', type: 'date' }) effectiveDate: string;
  @Column({ type: 'varchar', length: 10 }) status: ChecklistStatus;
  @Column({ name: 'cancel_reason', type: 'varchar', length: 200, nullable: true }) cancelReason: string | null;
  @CreateDateColumn({ name: 'created_at', type: 'datetime' }) createdAt: Date;
  @Column({ name: 'completed_at', type: 'datetime', nullable: true }) completedAt: Date | null;
}

/** An item of a checklist: a task of each of its assignees (source `checklist-item`, the item's id). */
@Entity('checklist_items')
@Index('ix_checklist_items_checklist', ['checklistId', 'position'])
@Index('ix_checklist_items_due', ['status', 'dueDate'])
export class ChecklistItem {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  @Column({ name: 'checklist_id', type: 'integer' }) checklistId: number;
  @Column({ type: 'integer' }) position: number;
  @Column({ type: 'varchar', length: 200 }) title: string;
  @Column({ type: 'varchar', length: 2000, nullable: true }) description: string | null;
  @Column({ type: 'varchar', length: 30 }) assignee: string;
  /** The users who hold its task (resolved when the checklist started). */
  @Column({ type: 'simple-json' }) assignees: number[];
  @Column({ name: 'offset_days', type: 'integer' }) offsetDays: number;
  @Column({ name: 'due_date', type: 'date' }) dueDate: string;
  @Column({ name: 'document_type_id', type: 'integer', nullable: true }) documentTypeId: number | null;
  @Column({ type: 'boolean' }) required: boolean;
  @Column({ type: 'varchar', length: 10 }) status: ChecklistStatus;
  @Column({ name: 'cancel_reason', type: 'varchar', length: 200, nullable: true }) cancelReason: string | null;
  @Column({ name: 'completed_by', type: 'integer', nullable: true }) completedBy: number | null;
  @Column({ name: 'completed_at', type: 'datetime', nullable: true }) completedAt: Date | null;
  /** The last day `checklist.item_overdue` was recorded for it (once a day). */
  @Column({ name: 'reminded_on', type: 'date', nullable: true }) remindedOn: string | null;
}

export const CHECKLIST_ENTITIES = [ChecklistTemplate, Checklist, ChecklistItem];
