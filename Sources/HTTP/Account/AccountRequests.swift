import Domain

/// `POST /v1/customers` body.
struct SignUpRequest: Decodable {
    let email: String
    let password: String
    let name: String

    var signUp: SignUp { SignUp(email: email, password: password, name: name) }
}

/// `POST /v1/sessions` body.
struct SignInRequest: Decodable {
    let email: String
    let password: String
}
