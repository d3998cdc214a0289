import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentUser } from '../../common/auth/access.decorators';
import { AuthUser } from '../../common/auth/auth-user';
import { DeletedDto } from '../../common/crud/crud.controller';
import { ApiErrors, ApiListEnvelope, ApiOkEnvelope } from '../../common/envelope/api-envelope.decorators';
import { ApiListQuery } from '../../common/paging/api-list-query.decorator';
import { ListQueryDto } from '../../common/paging/list-query.dto';
import { Page } from '../../common/paging/page';
import { IdParamPipe } from '../../common/validation/id-param.pipe';
import { BankAccountDto, CreateBankAccountDto, UpdateBankAccountDto } from './bank-accounts.dto';
import { BANK_ACCOUNT_LIST_SPEC, BankAccountsService } from './bank-accounts.service';

@ApiTags('Bank accounts')
@ApiBearerAuth()
@Controller('employees/:id/bank-accounts')
export class BankAccountsController {
  constructor(private readonly accounts: BankAccountsService) {}

  @Get()
  @Authenticated()
  @ApiOperation({
    summary:
      "The employee's bank accounts (whoever may see the employee; the IBAN whole to an Admin and the employee itself, else iban null and iban_masked)",
  })
  @ApiListQuery(BANK_ACCOUNT_LIST_SPEC)
  @ApiListEnvelope(BankAccountDto)
  @ApiErrors(400, 401, 404)
  list(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Query() query: ListQueryDto,
  ): Promise<Page<BankAccountDto>> {
    return this.accounts.list(caller, id, query);
  }

  @Post()
  @HttpCode(200)
  @Authenticated()
  @ApiOperation({
    summary: 'Add a bank account (Admin, or the employee itself)',
    description:
      'The IBAN is checked by ISO 13616 (country, length, mod-97 check digits), the BIC by ISO 9362: 400 naming the field and the reason. ' +
      'The first account is primary; primary: true makes the others not primary. The employee is notified (employee.bank_account_changed).',
  })
  @ApiOkEnvelope(BankAccountDto)
  @ApiErrors(400, 401, 403, 404)
  create(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Body() dto: CreateBankAccountDto,
  ): Promise<BankAccountDto> {
    return this.accounts.create(caller, id, dto);
  }

  @Get(':accountId')
  @Authenticated()
  @ApiOperation({ summary: 'One bank account (as the list shows it)' })
  @ApiOkEnvelope(BankAccountDto)
  @ApiErrors(400, 401, 404)
  get(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Param('accountId', new IdParamPipe()) accountId: number,
  ): Promise<BankAccountDto> {
    return this.accounts.get(caller, id, accountId);
  }

  @Put(':accountId')
  @Authenticated()
  @ApiOperation({
    summary: 'Change a bank account (Admin)',
    description:
      'Its holder name, BIC or primary; the IBAN does not change (another IBAN is another account: add it and make it primary). ' +
      'primary: true makes it the primary one; the primary account cannot be made not primary (make another one primary). The employee is notified.',
  })
  @ApiOkEnvelope(BankAccountDto)
  @ApiErrors(400, 401, 403, 404)
  update(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Param('accountId', new IdParamPipe()) accountId: number,
    @Body() dto: UpdateBankAccountDto,
  ): Promise<BankAccountDto> {
    return this.accounts.update(caller, id, accountId, dto);
  }

  @Delete(':accountId')
  @Authenticated()
  @ApiOperation({ summary: 'Remove a bank account (Admin); removing the primary makes the oldest other one primary' })
  @ApiOkEnvelope(DeletedDto)
  @ApiErrors(400, 401, 403, 404)
  remove(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Param('accountId', new IdParamPipe()) accountId: number,
  ): Promise<DeletedDto> {
    return this.accounts.remove(caller, id, accountId);
  }
}
