import { Column, Entity, PrimaryGeneratedColumn, ValueTransformer } from 'typeorm';

/** The types a custom field may have (docs/api/custom-fields.md). */
export const CUSTOM_FIELD_TYPES = [
  'text',
  'long_text',
  'integer',
  'decimal',
  'date',
  'boolean',
  'select',
  'multiselect',
  'employee',
  'email',
  'url',
] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];

/** The two types with options. */
export const SELECT_TYPES: readonly CustomFieldType[] = ['select', 'multiselect'];
/** The types whose values may be required unique (one value a row, comparable as text). */
export const UNIQUE_TYPES: readonly CustomFieldType[] = [
  'text',
  'integer',
  'decimal',
  'date',
  'email',
  'url',
  'employee',
  'select',
];

/** Who may see a field's values: user levels, and `self` (the employee its own value). */
export const CUSTOM_FIELD_AUDIENCES = ['Admin', 'Restricted Admin', 'Manager', 'Employee', 'self'] as const;
export type CustomFieldAudience = (typeof CUSTOM_FIELD_AUDIENCES)[number];
/** Who sees a field that names no audience: the employee itself and those above it (docs/api/decisions.md §26). */
export const DEFAULT_AUDIENCE: readonly CustomFieldAudience[] = ['Admin', 'Restricted Admin', 'Manager', 'self'];
export const CUSTOM_FIELD_EDITORS = ['admin', 'self'] as const;
export type CustomFieldEditor = (typeof CUSTOM_FIELD_EDITORS)[number];

export interface CustomFieldOption {
  value: string;
  label: string;
}

/** A list kept as ",a,b," so that one member is found by LIKE '%,a,%'. */
const MEMBERS: ValueTransformer = {
  to: (list: readonly string[] | undefined) => (list === undefined ? undefined : `,${list.join(',')},`),
  from: (stored: string | null) => (stored ? stored.split(',').filter(Boolean) : []),
};

const JSON_OPTIONS: ValueTransformer = {
  to: (options: CustomFieldOption[] | null | undefined) =>
    options === undefined ? undefined : options === null ? null : JSON.stringify(options),
  from: (stored: string | null) => (stored ? (JSON.parse(stored) as CustomFieldOption[]) : null),
};

/** A custom field's definition (migration 1763800000050): no schema change per field, ever. */
@Entity('custom_fields')
export class CustomField {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  /** `^[a-z][a-z0-9_]{0,39}$`, unique and immutable. */
  @Column({ name: 'field_key', type: 'varchar', length: 40 }) key: string;
  @Column({ type: 'varchar', length: 100 }) label: string;
  @Column({ type: 'varchar', length: 20 }) type: CustomFieldType;
  @Column({ type: 'text', nullable: true, transformer: JSON_OPTIONS }) options: CustomFieldOption[] | null;
  @Column({ type: 'boolean', default: false }) required: boolean;
  @Column({ name: 'is_unique', type: 'boolean', default: false }) unique: boolean;
  @Column({ type: 'boolean', default: false }) dated: boolean;
  @Column({ type: 'boolean', default: false }) pii: boolean;
  @Column({ name: 'visible_to', type: 'varchar', length: 100, transformer: MEMBERS }) visibleTo: CustomFieldAudience[];
  @Column({ name: 'editable_by', type: 'varchar', length: 10, default: 'admin' }) editableBy: CustomFieldEditor;
  @Column({ name: 'in_list', type: 'boolean', default: false }) inList: boolean;
  @Column({ type: 'integer', default: 0 }) position: number;
  @Column({ type: 'varchar', length: 1000, nullable: true }) description: string | null;
}
