import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { recordAudit } from '../../common/audit/audit-log';
import { transaction } from '../../common/database/transaction';
import { NotFoundException, ValidationException } from '../../common/errors/domain.exception';
import { findTablePage, parseListQuery } from '../../common/paging/list-request';
import { ListQueryDto } from '../../common/paging/list-query.dto';
import { Page } from '../../common/paging/page';
import { PayFrequencyDto, UpdatePayFrequencyDto } from '../dto/payroll-config.dto';
import { PayFrequency } from '../entities/payroll-config.entities';
import { PAY_FREQUENCY_LIST_SPEC } from '../entities/payroll-lists';

const toPayFrequencyDto = (f: PayFrequency): PayFrequencyDto => ({ id: f.id, name: f.name, proration: f.proration });

/** Pay frequencies (docs/api/decisions.md §10, §20): seeded; an Admin sets each one's proration rule. */
@Injectable()
export class PayFrequenciesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectRepository(PayFrequency) private readonly frequencies: Repository<PayFrequency>,
  ) {}

  async list(query: ListQueryDto): Promise<Page<PayFrequencyDto>> {
    const page = await findTablePage(this.frequencies, 'f', parseListQuery(query, PAY_FREQUENCY_LIST_SPEC));
    return page.map(toPayFrequencyDto);
  }

  async get(id: number): Promise<PayFrequencyDto> {
    const frequency = await this.frequencies.findOne({ where: { id } });
    if (!frequency) throw new NotFoundException('Pay frequency');
    return toPayFrequencyDto(frequency);
  }

  /** PUT /payroll_config/pay-frequencies/{id}: the proration rule (the name is seeded), audited. */
  async update(id: number, dto: UpdatePayFrequencyDto): Promise<PayFrequencyDto> {
    return transaction(this.dataSource, async (em) => {
      const frequency = await em.getRepository(PayFrequency).findOne({ where: { id } });
      if (!frequency) throw new NotFoundException('Pay frequency');
      if (dto.name !== undefined && dto.name !== frequency.name)
        throw ValidationException.field('name', `pay frequencies are seeded: the name stays "${frequency.name}"`);
      const before = toPayFrequencyDto(frequency);
      const proration = dto.proration ?? frequency.proration;
      await em.update(PayFrequency, { id }, { proration });
      const after = { ...before, proration };
      await recordAudit(em, {
        action: 'update',
        resource: 'payroll_config/pay-frequencies',
        event: 'pay_frequency.changed',
        resourceId: id,
        before,
        after,
      });
      return after;
    });
  }
}
