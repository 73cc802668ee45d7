import Domain

/// Orders to response models.
public enum OrderTranslator {
    /// - Throws: `MoneyError` when a line total cannot be computed exactly.
    public static func model(_ order: Order) throws -> OrderModel {
        OrderModel(
            id: order.id.uuidString.lowercased(), status: order.status.rawValue,
            lines: try order.lines.map(LineModel.init),
            total: MoneyModel(order.total), paymentIntentId: order.paymentIntentID,
            payment: order.action.map { action in
                PaymentActionModel(
                    clientSecret: action.clientSecret,
                    nextAction: .init(type: action.nextActionType, redirectURL: action.redirectURL),
                    expiresAt: order.actionExpiresAt.map(Timestamp.rfc3339))
            },
            createdAt: Timestamp.rfc3339(order.createdAt))
    }

    public static func model(_ page: Page<Order>) throws -> PageModel<OrderModel> {
        PageModel(data: try page.items.map(model), nextCursor: page.nextCursor?.token)
    }
}
