import { Injectable } from '@nestjs/common';
import { AuthUser } from '../common/auth/auth-user';
import { NotFoundException } from '../common/errors/domain.exception';
import { FileConditions, FileResponse } from '../common/http/file-response';
import { GeneratedDocumentsService } from '../documents/generated-documents.service';
import { ExpenseClaimDto } from './dto/expense-claims.dto';
import { ExpenseItem } from './entities/expense.entities';
import { EXPENSE_CLAIM_STATES } from './expense-claims.states';
import { ExpenseClaimsReader } from './expense-claims.reader';
import { ExpenseClaimsRepository } from './expense-claims.repository';

/** A receipt: a PDF, JPEG or PNG (by its bytes) of at most 10 MiB. */
export const RECEIPT_LIMITS = { maxBytes: 10 * 1024 * 1024, allowedTypes: ['pdf', 'jpeg', 'png'] as const };

/** The document type receipts are kept as (the service's own, seeded by the claims' migration). */
const RECEIPT_TYPE = 'receipt';

/**
 * Receipts of claim items (issue 68): each a document of the claim's employee (type Receipt), put
 * while the claim can be changed, read by whoever may read the claim (its approvers too).
 */
@Injectable()
export class ExpenseReceiptsService {
  constructor(
    private readonly reader: ExpenseClaimsReader,
    private readonly repository: ExpenseClaimsRepository,
    private readonly documents: GeneratedDocumentsService,
  ) {}

  /** PUT .../items/{item}/receipt: the file stored as a document, the item pointing at it (an earlier receipt stays among the employee's documents). */
  async put(
    caller: AuthUser,
    claimId: number,
    itemId: number,
    request: Parameters<GeneratedDocumentsService['storeUpload']>[2],
  ): Promise<ExpenseClaimDto> {
    const { claim } = await this.reader.editable(caller, claimId, 'change');
    const item = await this.item(claimId, itemId);
    await this.documents.storeUpload(
      claim.employeeId,
      RECEIPT_TYPE,
      request,
      RECEIPT_LIMITS,
      { name: `Receipt: ${claim.title}, ${item.date} ${item.description}`.slice(0, 200), uploadedBy: caller.id },
      async (em, documentId) => {
        // Still an item of a claim that can be changed: else the document goes with the transaction.
        const current = await this.reader.claimIn(em, claimId);
        if (!current || !EXPENSE_CLAIM_STATES.allows('change', current.status))
          throw EXPENSE_CLAIM_STATES.invalid('change', current?.status ?? claim.status);
        const linked = await em.getRepository(ExpenseItem).update({ id: itemId, claimId }, { receiptDocumentId: documentId });
        if (!linked.affected) throw new NotFoundException('Expense item');
      },
    );
    return this.reader.view((await this.reader.load(caller, claimId)).claim);
  }

  /** GET .../items/{item}/receipt: the file, for whoever may read the claim. */
  async file(caller: AuthUser, claimId: number, itemId: number, conditions: FileConditions): Promise<FileResponse> {
    const { claim } = await this.reader.load(caller, claimId);
    const item = await this.item(claimId, itemId);
    if (item.receiptDocumentId === null) throw new NotFoundException('Receipt');
    return this.documents.generatedFile(claim.employeeId, item.receiptDocumentId, conditions);
  }

  private async item(claimId: number, itemId: number): Promise<ExpenseItem> {
    const item = (await this.repository.itemsOf([claimId])).get(claimId)?.find((i) => i.id === itemId);
    if (!item) throw new NotFoundException('Expense item');
    return item;
  }
}
