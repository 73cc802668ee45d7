import Domain

/// Account entities to response models.
public enum AccountTranslator {
    public static func model(_ customer: Customer) -> CustomerModel {
        CustomerModel(id: customer.id.uuidString.lowercased(), email: customer.email, name: customer.name)
    }

    public static func model(_ session: Session) -> SessionModel {
        SessionModel(
            token: session.token, customerId: session.customerID.uuidString.lowercased(),
            expiresAt: Timestamp.rfc3339(session.expiresAt))
    }
}
