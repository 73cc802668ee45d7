import Domain

/// Orders to response models.
public enum OrderTranslator {
    /// - Throws: `MoneyError` when a line total cannot be computed exactly.
    public static func model(_ order: Order) throws -> OrderModel {
        OrderModel(
            id: order.id.uuidString.lowercased(), status: order.status.rawValue,
            lines: try order.lines.map(LineModel.init),
            total: MoneyModel(order.total), paymentIntentId: order.paymentIntentID, refundedAmount: order.refundedAmount,
            refunds: order.refunds.map {
                OrderRefundModel(
                    id: $0.id.uuidString.lowercased(), amount: MoneyModel($0.amount), status: $0.status.rawValue,
                    createdAt: Timestamp.rfc3339($0.createdAt))
            },
            payment: order.action.map { action in
                PaymentActionModel(
                    clientSecret: action.clientSecret,
                    nextAction: .init(type: action.nextActionType, redirectURL: action.redirectURL),
                    expiresAt: order.actionExpiresAt.map(Timestamp.rfc3339))
            },
            createdAt: Timestamp.rfc3339(order.createdAt))
    }

    public static func model(_ refund: Refund) -> RefundModel {
        RefundModel(
            id: refund.id.uuidString.lowercased(), orderId: refund.orderID.uuidString.lowercased(), amount: MoneyModel(refund.amount),
            reason: refund.reason.rawValue, restock: refund.restock,
            lines: refund.lines.map { RefundLineModel(itemId: $0.itemID.uuidString.lowercased(), quantity: $0.quantity) },
            status: refund.status.rawValue, providerRefundId: refund.providerRefundID, createdAt: Timestamp.rfc3339(refund.createdAt))
    }

    public static func model(_ page: Page<Order>) throws -> PageModel<OrderModel> {
        PageModel(data: try page.items.map(model), nextCursor: page.nextCursor?.token)
    }
}
