import { Global, Module } from '@nestjs/common';
import { PayrollInputs } from './payroll-inputs';

/** Global: modules register the loaders of the payroll inputs they declare; payroll reads them. */
@Global()
@Module({ providers: [PayrollInputs], exports: [PayrollInputs] })
export class PayrollInputsModule {}
