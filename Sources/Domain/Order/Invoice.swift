import Foundation

/// The shop as a qualified invoice names it: its name and its registration number with the
/// National Tax Agency (`T` and 13 digits; `INVOICE_ISSUER_NAME`, `INVOICE_REGISTRATION_NUMBER`).
public struct InvoiceIssuer: Hashable, Sendable {
    public let name: String
    public let registrationNumber: String

    /// `nil` unless `registrationNumber` is `T` and 13 digits and `name` is not blank.
    public init?(name: String, registrationNumber: String) {
        let digits = registrationNumber.dropFirst()
        guard registrationNumber.first == "T", digits.count == 13, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
            !name.trimmingCharacters(in: .whitespaces).isEmpty
        else { return nil }
        self.name = name
        self.registrationNumber = registrationNumber
    }
}

/// A paid order's qualified-invoice data (適格請求書, the simplified form retail may issue): the
/// issuer and its registration number, the date, each line with its rate class (reduced-rate
/// lines marked), and per rate the total charged and its tax, as the order computed them once.
public struct Invoice: Hashable, Sendable {
    public let orderID: UUID
    public let issuerName: String
    public let registrationNumber: String
    public let issuedAt: Date
    public let lines: [InvoiceLine]
    public let shippingFee: Money
    public let pricesIncludeTax: Bool
    public let taxLines: [TaxLine]
    public let total: Money

    /// The invoice of `order`, or `nil` when it was never paid (nothing was sold).
    public init?(_ order: Order, issuer: InvoiceIssuer) {
        guard [.paid, .refundPending, .refunded].contains(order.status) else { return nil }
        orderID = order.id
        issuerName = issuer.name
        registrationNumber = issuer.registrationNumber
        // The sale is made when the order is first paid: a 3-D Secure or payment-sheet order
        // placed before midnight and paid after it was sold on the second day.
        issuedAt = order.events.first { $0.type == "status_changed" && $0.data["to"] == OrderStatus.paid.rawValue }?.at ?? order.createdAt
        lines = order.lines.map(InvoiceLine.init)
        shippingFee = order.shippingFee
        pricesIncludeTax = order.pricesIncludeTax
        taxLines = order.taxLines
        total = order.total
    }
}

public struct InvoiceLine: Hashable, Sendable {
    public let name: String
    public let sku: String
    public let taxClass: TaxClass
    /// Marked as the reduced rate's, as an invoice must (※ on paper).
    public let reducedRate: Bool
    public let quantity: Int
    public let unitPrice: Money
    public let lineTotal: Money

    public init(_ line: OrderLine) {
        name = line.name
        sku = line.sku
        taxClass = line.taxClass
        reducedRate = line.taxClass == .reduced
        quantity = line.quantity
        unitPrice = line.unitPrice
        lineTotal = line.lineTotal
    }
}
