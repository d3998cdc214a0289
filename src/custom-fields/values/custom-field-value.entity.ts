import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A custom field's value for an employee (migrations 1763800000051 and 053: in employee order); a multiselect keeps a row per option (`item`). */
@Entity('custom_field_values')
export class CustomFieldValue {
  @PrimaryColumn({ name: 'employee_id', type: 'integer' }) employeeId: number;
  @PrimaryColumn({ name: 'field_id', type: 'integer' }) fieldId: number;
  @PrimaryColumn({ type: 'varchar', length: 100, default: '' }) item: string;
  @Column({ name: 'value_text', type: 'text' }) text: string;
  @Column({ name: 'value_key', type: 'varchar', length: 191, nullable: true }) key: string | null;
  @Column({ name: 'value_number', type: 'double', nullable: true }) number: number | null;
  @Column({ name: 'unique_key', type: 'varchar', length: 64, nullable: true }) unique: string | null;
}
